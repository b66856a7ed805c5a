// The oauth-clients module's SQL: the organization's list, one client, insert, save, delete.
import type { Queries, Tx } from '../../db/database.ts'
import { getInOrg } from '../../db/get-in-org.ts'
import { defineList } from '../../db/list.ts'
import { AppError } from '../../errors.ts'
import type { OAuthClientsTable } from './table.ts'

export type OAuthClientRow = OAuthClientsTable

/** Newest first, on the oauth_clients_org_created index. */
export const OAUTH_CLIENT_LIST = defineList('oauth_clients', { sorts: ['created_at'] })

/** The organization's client, or 404 "No such OAuth client" (another organization's is exactly as missing). */
export function getClientInOrg(db: Queries, organizationId: string, id: string): Promise<OAuthClientRow> {
  return getInOrg(db, 'oauth_clients', organizationId, id, 'OAuth client')
}

/** As getClientInOrg, its row locked until commit: a change reads what the previous one wrote. */
export async function lockClientInOrg(tx: Tx, organizationId: string, id: string): Promise<OAuthClientRow> {
  const row = await tx.raw.get<OAuthClientRow>(`SELECT * FROM oauth_clients WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [
    id,
    organizationId,
  ])
  if (!row) throw new AppError('NOT_FOUND', 'No such OAuth client')
  return row
}

export async function countClients(tx: Tx, organizationId: string): Promise<number> {
  const row = await tx.raw.get<{ n: number }>('SELECT count(*) AS n FROM oauth_clients WHERE organization_id = ?', [organizationId])
  return Number(row?.n ?? 0)
}

export async function insertClient(tx: Tx, row: OAuthClientRow): Promise<void> {
  await tx.kysely.insertInto('oauth_clients').values(row).execute()
}

/** Writes `changes` and returns the row as it is now. */
export function saveClient(tx: Tx, id: string, changes: Partial<Omit<OAuthClientRow, 'id' | 'organization_id'>>): Promise<OAuthClientRow> {
  return tx.kysely.updateTable('oauth_clients').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Deletes the organization's client; what it was, or undefined when it was gone already. */
export async function deleteClientRow(tx: Tx, organizationId: string, id: string): Promise<OAuthClientRow | undefined> {
  return tx.raw.get<OAuthClientRow>('DELETE FROM oauth_clients WHERE id = ? AND organization_id = ? RETURNING *', [id, organizationId])
}

/** A client by its id, whatever its organization (the authorization server identifies clients by id alone). */
export async function findClient(db: Queries, id: string): Promise<OAuthClientRow | undefined> {
  return db.raw.get<OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = ?', [id])
}

/** Names of the organization's clients among `ids` (for lists that show them). */
export async function clientNames(db: Queries, organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.raw.all<{ id: string; name: string }>(
    `SELECT id, name FROM oauth_clients WHERE organization_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  )
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** The organization's longest-standing active Super Admin (whom an operator-registered client acts for). */
export async function oldestActiveSuperAdmin(db: Queries, organizationId: string): Promise<string | undefined> {
  const row = await db.raw.get<{ id: string }>(
    "SELECT id FROM users WHERE organization_id = ? AND role = 'super_admin' AND status = 'active' ORDER BY created_at, id LIMIT 1",
    [organizationId],
  )
  return row?.id
}
