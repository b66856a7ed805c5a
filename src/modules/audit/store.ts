// The audit module's SQL: the organization's list (newest first) and the chains read in pages for
// `audit verify`. Appending lives in append.ts, on the caller's transaction.
import type { Queries } from '../../db/database.ts'
import { defineList } from '../../db/list.ts'
import type { AuditLogsTable } from './table.ts'

export type AuditRow = AuditLogsTable

export const AUDIT_LIST = defineList('audit_logs', { sorts: ['created_at'] })

/**
 * The organization whose chain follows `after` in id order (the first one when `after` is undefined).
 * One index probe per chain on (organization_id, seq), so the ids are never all held at once.
 */
export async function nextChainOrganization(db: Queries, after: string | undefined): Promise<string | undefined> {
  const row =
    after === undefined
      ? await db.raw.get<{ id: string | null }>('SELECT min(organization_id) AS id FROM audit_logs WHERE organization_id IS NOT NULL')
      : await db.raw.get<{ id: string | null }>('SELECT min(organization_id) AS id FROM audit_logs WHERE organization_id > ?', [after])
  return row?.id ?? undefined
}

/** Whether the installation chain (records of no organization) has any record. */
export async function hasInstallationChain(db: Queries): Promise<boolean> {
  return (await db.raw.get('SELECT 1 AS x FROM audit_logs WHERE organization_id IS NULL LIMIT 1')) !== undefined
}

// Keyset on (seq, id), not seq alone: a forged duplicate seq (possible once someone dropped the unique
// index) must not fall between two pages; the first page has no lower bound, so a forged seq of 0 or
// below is read too. Separate statements for the installation chain: `organization_id = NULL` never matches.
const ORG_FIRST = 'SELECT * FROM audit_logs WHERE organization_id = ? ORDER BY seq, id LIMIT ?'
const ORG_NEXT = 'SELECT * FROM audit_logs WHERE organization_id = ? AND (seq, id) > (?, ?) ORDER BY seq, id LIMIT ?'
const INSTALLATION_FIRST = 'SELECT * FROM audit_logs WHERE organization_id IS NULL ORDER BY seq, id LIMIT ?'
const INSTALLATION_NEXT = 'SELECT * FROM audit_logs WHERE organization_id IS NULL AND (seq, id) > (?, ?) ORDER BY seq, id LIMIT ?'

/** Up to `limit` records of one chain after `after` (the last record of the previous page), in chain order. */
export async function chainPage(
  db: Queries,
  organizationId: string | null,
  after: { seq: number; id: string } | undefined,
  limit: number,
): Promise<AuditRow[]> {
  const seek = after ? [after.seq, after.id] : []
  const rows =
    organizationId === null
      ? await db.raw.all<AuditRow>(after ? INSTALLATION_NEXT : INSTALLATION_FIRST, [...seek, limit])
      : await db.raw.all<AuditRow>(after ? ORG_NEXT : ORG_FIRST, [organizationId, ...seek, limit])
  // PostgreSQL may hand BIGINT columns back as strings; the hash covers numbers.
  for (const row of rows) {
    row.seq = Number(row.seq)
    row.created_at = Number(row.created_at)
  }
  return rows
}
