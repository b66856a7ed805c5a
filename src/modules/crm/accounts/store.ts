// The accounts part's SQL: accounts, their tag index, and the conditions of the accounts list.
import type { Queries, Tx } from '../../../db/database.ts'
import { type Condition, defineList, likePrefix } from '../../../db/list.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { keyShare } from '../key-share.ts'
import type { AccountsTable } from '../table.ts'

export type AccountRow = AccountsTable

/** `name` sorts as people read names: by the folded name_key (case and accents ignored). */
export const ACCOUNT_LIST = defineList('accounts', { sorts: { created_at: 'created_at', updated_at: 'updated_at', name: 'name_key' } })

/** The account; in a transaction, held until it ends (keyShare: a contact about to name it, or its delete, waits for the other). */
export function findAccount(db: Queries, organizationId: string, id: string): Promise<AccountRow | undefined> {
  return db.raw.get<AccountRow>(`SELECT * FROM accounts WHERE id = ? AND organization_id = ?${keyShare(db)}`, [id, organizationId])
}

/** Held as findAccount: a lead's conversion names the account of its domain. */
export function findAccountByDomain(db: Queries, organizationId: string, domain: string): Promise<AccountRow | undefined> {
  return db.raw.get<AccountRow>(`SELECT * FROM accounts WHERE organization_id = ? AND domain = ?${keyShare(db)}`, [organizationId, domain])
}

/**
 * The account locked FOR UPDATE until the transaction ends. Invariants: a PATCH changes the latest
 * version (no lost update); a delete counts every contact naming it (none can be added meanwhile: keyShare).
 */
export function lockAccount(tx: Tx, organizationId: string, id: string): Promise<AccountRow | undefined> {
  return tx.raw.get<AccountRow>(`SELECT * FROM accounts WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [id, organizationId])
}

/** The domains of the organization's accounts among `ids` (an export's batch), by id; null for one without. */
export async function accountDomains(db: Queries, organizationId: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map()
  const rows = await db.raw.all<{ id: string; domain: string | null }>(
    `SELECT id, domain FROM accounts WHERE organization_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  )
  return new Map(rows.map((r) => [r.id, r.domain]))
}

export async function insertAccount(tx: Tx, row: AccountRow): Promise<void> {
  await tx.kysely.insertInto('accounts').values(row).execute()
  await replaceAccountTags(tx, row)
}

/** Saves every column; the tag index follows when `tagsChanged`. */
export async function saveAccount(tx: Tx, row: AccountRow, tagsChanged: boolean): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('accounts').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
  if (tagsChanged) await replaceAccountTags(tx, row)
}

async function replaceAccountTags(tx: Tx, row: AccountRow): Promise<void> {
  await tx.raw.run('DELETE FROM account_tags WHERE account_id = ?', [row.id])
  const tags = JSON.parse(row.tags) as string[]
  if (tags.length === 0) return
  await tx.kysely
    .insertInto('account_tags')
    .values(tags.map((tag) => ({ account_id: row.id, organization_id: row.organization_id, tag })))
    .execute()
}

/** Its tags go with it (ON DELETE CASCADE); its contacts must have been detached first. */
export async function deleteAccountRow(tx: Tx, row: AccountRow): Promise<void> {
  await tx.raw.run('DELETE FROM accounts WHERE id = ? AND organization_id = ?', [row.id, row.organization_id])
}

export interface AccountFilterValues {
  ownerId?: string
  tag?: string
  q?: string
  createdAfter?: number
  createdBefore?: number
}

export function accountConditions(filters: AccountFilterValues): Condition[] {
  const where: Condition[] = []
  if (filters.ownerId === 'none') where.push({ sql: 'accounts.owner_id IS NULL', params: [] })
  else if (filters.ownerId !== undefined) where.push({ sql: 'accounts.owner_id = ?', params: [filters.ownerId] })
  if (filters.tag !== undefined)
    where.push({
      sql: 'accounts.id IN (SELECT account_id FROM account_tags WHERE organization_id = accounts.organization_id AND tag = ?)',
      params: [filters.tag],
    })
  // Both columns are stored folded (name_key, the lowercased domain): the same on PostgreSQL, where LIKE is case-sensitive.
  if (filters.q !== undefined)
    where.push({
      sql: "accounts.name_key LIKE ? ESCAPE '\\' OR accounts.domain LIKE ? ESCAPE '\\'",
      params: [likePrefix(searchKey(filters.q)), likePrefix(filters.q.trim().toLowerCase())],
    })
  if (filters.createdAfter !== undefined) where.push({ sql: 'accounts.created_at > ?', params: [filters.createdAfter] })
  if (filters.createdBefore !== undefined) where.push({ sql: 'accounts.created_at < ?', params: [filters.createdBefore] })
  return where
}
