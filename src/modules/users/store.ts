// The users module's SQL. The lookups run on every authenticated request and every login: raw
// statements (hot paths); the writes are Kysely.
import type { Queries, Tx } from '../../db/database.ts'
import { findInOrg, getInOrg } from '../../db/get-in-org.ts'
import { type Condition, defineList, likePrefix } from '../../db/list.ts'
import { AppError } from '../../errors.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { UsersTable } from './table.ts'

export type UserRow = UsersTable

/** The API's `name` sorts alphabetically for people: by the folded `name_key`. */
export const USER_LIST = defineList('users', { sorts: { created_at: 'created_at', name: 'name_key', email: 'email' } })

const BY_EMAIL = 'SELECT * FROM users WHERE email = ?'

/** By an e-mail already normalized (normalizeEmail): e-mails are unique across the installation. */
export async function findUserByNormalizedEmail(db: Queries, email: string): Promise<UserRow | undefined> {
  return db.raw.get<UserRow>(BY_EMAIL, [email])
}

/** A user of another organization is exactly as missing as one that does not exist. */
export async function findUserInOrg(db: Queries, organizationId: string, id: string): Promise<UserRow | undefined> {
  return findInOrg(db, 'users', organizationId, id)
}

/** The user, or 404 "No such user". */
export async function getUserInOrg(db: Queries, organizationId: string, id: string): Promise<UserRow> {
  return getInOrg(db, 'users', organizationId, id, 'user')
}

/**
 * The user, or 404, its row locked until commit (another change of it waits, then reads what this one
 * wrote). A no-op UPDATE rather than SELECT … FOR UPDATE: its lock (PostgreSQL's FOR NO KEY UPDATE)
 * still lets other transactions insert rows naming the user (sessions, keys) meanwhile.
 */
export async function lockUserInOrg(tx: Tx, organizationId: string, id: string): Promise<UserRow> {
  const row = await tx.raw.get<UserRow>('UPDATE users SET updated_at = updated_at WHERE id = ? AND organization_id = ? RETURNING *', [
    id,
    organizationId,
  ])
  if (!row) throw new AppError('NOT_FOUND', 'No such user')
  return row
}

export async function insertUserRow(tx: Tx, row: UserRow): Promise<void> {
  await tx.kysely.insertInto('users').values(row).execute()
}

export async function saveUser(
  tx: Tx,
  id: string,
  fields: Pick<UserRow, 'name' | 'name_key' | 'role' | 'status' | 'updated_at'>,
): Promise<UserRow> {
  return tx.kysely.updateTable('users').set(fields).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Active Super Admins of the organization other than `exceptId`. */
export async function countOtherActiveSuperAdmins(tx: Tx, organizationId: string, exceptId: string): Promise<number> {
  const row = await tx.raw.get<{ n: number }>(
    "SELECT count(*) AS n FROM users WHERE organization_id = ? AND role = 'super_admin' AND status = 'active' AND id <> ?",
    [organizationId, exceptId],
  )
  return Number(row?.n ?? 0)
}

/** Users whose name or e-mail starts with `q`, without regard to case or accents. */
export function userSearchCondition(q: string): Condition {
  // Names compare through their folded key; e-mails are stored lowercased. Both columns are already
  // folded, so the comparison is the same on PostgreSQL, where LIKE is case-sensitive.
  return {
    sql: "users.name_key LIKE ? ESCAPE '\\' OR users.email LIKE ? ESCAPE '\\'",
    params: [likePrefix(searchKey(q)), likePrefix(q.toLowerCase())],
  }
}

/** Sets a new password hash (hashed before the transaction). */
export async function setPasswordHash(tx: Tx, userId: string, passwordHash: string, now: number): Promise<void> {
  await tx.raw.run('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?', [passwordHash, now, userId])
}
