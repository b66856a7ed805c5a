// The leads' SQL: one row by id, insert, save, delete, the keyset list and its filter conditions.
import type { Queries, Tx } from '../../../db/database.ts'
import { findInOrg } from '../../../db/get-in-org.ts'
import { type Condition, defineList, likePrefix } from '../../../db/list.ts'
import { searchKey } from '../../../lib/search-key.ts'
import type { LeadsTable } from '../table.ts'

export type LeadRow = LeadsTable

// Each sort has its index on (organization_id, column, id) in 0014_crm.sql.
export const LEAD_LIST = defineList('leads', { sorts: ['created_at', 'updated_at', 'score'] })

export function findLead(db: Queries, organizationId: string, id: string): Promise<LeadRow | undefined> {
  return findInOrg(db, 'leads', organizationId, id)
}

/**
 * The lead locked FOR UPDATE until the transaction ends. Invariants: a lead is converted once (the
 * conversions after the first wait, then find it converted and answer what it made: one contact), and
 * a PATCH, a DELETE or a conversion decides from its latest status and fields (no lost update).
 */
export function lockLead(tx: Tx, organizationId: string, id: string): Promise<LeadRow | undefined> {
  return tx.raw.get<LeadRow>(`SELECT * FROM leads WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [id, organizationId])
}

export async function insertLead(tx: Tx, row: LeadRow): Promise<void> {
  await tx.kysely.insertInto('leads').values(row).execute()
}

export async function saveLead(tx: Tx, row: LeadRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('leads').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

export async function deleteLeadRow(tx: Tx, lead: Pick<LeadRow, 'id' | 'organization_id'>): Promise<void> {
  await tx.raw.run('DELETE FROM leads WHERE id = ? AND organization_id = ?', [lead.id, lead.organization_id])
}

/** Leads whose name or e-mail starts with `q`, without regard to case or accents (both columns are stored folded). */
export function leadSearchCondition(q: string): Condition {
  return {
    sql: "leads.name_key LIKE ? ESCAPE '\\' OR leads.email LIKE ? ESCAPE '\\'",
    params: [likePrefix(searchKey(q)), likePrefix(q.trim().toLowerCase())],
  }
}
