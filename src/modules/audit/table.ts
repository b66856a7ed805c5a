// audit_logs: append-only (triggers refuse UPDATE and DELETE), one hash chain per organization, plus
// one installation chain (organization_id NULL) for what belongs to no organization, e.g. a login
// attempt with an unknown e-mail.
import { sql } from 'drizzle-orm'
import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { ChainedFields } from './chain.ts'

export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id'),
    /** Position in its chain, from 1, without gaps. */
    seq: integer('seq').notNull(),
    createdAt: integer('created_at').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    /** The session or API key the actor used. */
    credentialId: text('credential_id'),
    event: text('event').notNull(),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull(),
    reason: text('reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** JSON object, never a secret. */
    details: text('details').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_logs_chain_seq').on(sql`ifnull(${t.organizationId}, '')`, t.seq),
    index('audit_logs_org_created').on(t.organizationId, t.createdAt, t.id),
  ],
)

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
