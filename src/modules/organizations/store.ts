// The organizations module's SQL: the organization row (read with the user at every login) and the
// security settings, plus ending the sessions an MFA requirement shuts out.
import type { Queries, Tx } from '../../db/database.ts'
import type { OrganizationsTable } from './table.ts'

export type OrganizationRow = OrganizationsTable

export type SecurityColumns = Pick<OrganizationRow, 'allowed_ips' | 'max_concurrent_sessions' | 'session_limit_policy' | 'mfa_required'>

const BY_ID = 'SELECT * FROM organizations WHERE id = ?'

export async function findOrganization(db: Queries, id: string): Promise<OrganizationRow | undefined> {
  return db.raw.get<OrganizationRow>(BY_ID, [id])
}

/** Whether the database holds any organization (a database that does is not fresh). */
export async function anyOrganization(db: Queries): Promise<boolean> {
  return (await db.raw.get('SELECT id FROM organizations LIMIT 1')) !== undefined
}

/**
 * The organization's row as it is now, locked until commit: another change of its settings waits, then
 * reads what this one wrote. A no-op UPDATE rather than SELECT … FOR UPDATE: its lock (PostgreSQL's FOR
 * NO KEY UPDATE) does not stop the organization's other writes from inserting rows that name it.
 */
export async function lockOrganization(tx: Tx, id: string): Promise<OrganizationRow | undefined> {
  return tx.raw.get<OrganizationRow>('UPDATE organizations SET updated_at = updated_at WHERE id = ? RETURNING *', [id])
}

export async function insertOrganization(tx: Tx, row: OrganizationRow): Promise<void> {
  await tx.kysely.insertInto('organizations').values(row).execute()
}

export async function saveSecurity(tx: Tx, id: string, columns: SecurityColumns, now: number): Promise<OrganizationRow> {
  return tx.kysely
    .updateTable('organizations')
    .set({ ...columns, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface EndedSession {
  id: string
  user_id: string
  /** Until when its access tokens are valid: the revocation must be remembered that long. */
  access_expires_at: number
  expires_at: number
}

/** Revokes every live session of the organization's users who have no confirmed MFA factor. */
export async function endSessionsWithoutMfa(tx: Tx, organizationId: string, now: number): Promise<EndedSession[]> {
  const rows = await tx.raw.all<EndedSession>(
    // Spelled out: inside the subquery a bare user_id would be mfa_factors' own column.
    "UPDATE sessions SET revoked_at = ?, revoked_reason = 'mfa_required' WHERE organization_id = ? AND revoked_at IS NULL " +
      'AND NOT EXISTS (SELECT 1 FROM mfa_factors WHERE mfa_factors.user_id = sessions.user_id AND mfa_factors.confirmed_at IS NOT NULL) ' +
      'RETURNING id, user_id, access_expires_at, expires_at',
    [now, organizationId],
  )
  return rows.map((row) => ({ ...row, access_expires_at: Number(row.access_expires_at), expires_at: Number(row.expires_at) }))
}
