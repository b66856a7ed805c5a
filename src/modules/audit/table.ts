// audit_logs: append-only (triggers refuse UPDATE and DELETE), one hash chain per organization, plus
// one installation chain (organization_id NULL) for what belongs to no organization, e.g. a login
// attempt with an unknown e-mail.
import type { ChainedFields } from './chain.ts'

/** A row of audit_logs (Kysely). */
export interface AuditLogsTable extends ChainedFields {
  prev_hash: string
  hash: string
}

declare module '../../db/database.ts' {
  interface Tables {
    audit_logs: AuditLogsTable
  }
}
