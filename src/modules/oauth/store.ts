// The authorization server's SQL: authorization codes, consents (grants), and its two kinds of sessions
// (the browser's sign-in cookie, and each client's token family). Writes take the caller's transaction.
import type { Queries, Tx } from '../../db/database.ts'
import { type Condition, defineList } from '../../db/list.ts'
import type { OAuthCodesTable, OAuthGrantsTable } from './table.ts'

export type CodeRow = OAuthCodesTable
export type GrantRow = OAuthGrantsTable

/** A user's live grants, newest first. */
export const GRANT_LIST = defineList('oauth_grants', { sorts: ['created_at'] })

export async function insertCode(tx: Tx, row: CodeRow): Promise<void> {
  await tx.kysely.insertInto('oauth_codes').values(row).execute()
}

export async function findCode(db: Queries, codeHash: string): Promise<CodeRow | undefined> {
  return db.raw.get<CodeRow>('SELECT * FROM oauth_codes WHERE code_hash = ?', [codeHash])
}

/** Uses the code up; undefined when it was already used (or never existed): exactly one exchange wins. */
export async function consumeCode(tx: Tx, codeHash: string, now: number): Promise<CodeRow | undefined> {
  return tx.raw.get<CodeRow>('UPDATE oauth_codes SET consumed_at = ? WHERE code_hash = ? AND consumed_at IS NULL RETURNING *', [
    now,
    codeHash,
  ])
}

/** Records the session the code's exchange opened, so that a replay can revoke it. */
export async function setCodeSession(tx: Tx, codeHash: string, sessionId: string): Promise<void> {
  await tx.raw.run('UPDATE oauth_codes SET session_id = ? WHERE code_hash = ?', [sessionId, codeHash])
}

/** Codes past their expiry: a replay of one is refused as unknown anyway. */
export async function deleteExpiredCodes(tx: Tx, now: number): Promise<number> {
  return tx.raw.run('DELETE FROM oauth_codes WHERE expires_at <= ?', [now])
}

/** The user's grant to a client, live or revoked. */
export async function findGrant(db: Queries, userId: string, clientId: string): Promise<GrantRow | undefined> {
  return db.raw.get<GrantRow>('SELECT * FROM oauth_grants WHERE user_id = ? AND client_id = ?', [userId, clientId])
}

/**
 * Inside a code exchange: the user's grant to the client, its row locked until commit. Invariant: a
 * revocation of the grant waits for the exchange, so it ends the token family the exchange opens.
 */
export async function lockGrant(tx: Tx, userId: string, clientId: string): Promise<GrantRow | undefined> {
  return tx.raw.get<GrantRow>(`SELECT * FROM oauth_grants WHERE user_id = ? AND client_id = ?${tx.forUpdate}`, [userId, clientId])
}

export async function findGrantById(db: Queries, organizationId: string, grantId: string): Promise<GrantRow | undefined> {
  return db.raw.get<GrantRow>('SELECT * FROM oauth_grants WHERE id = ? AND organization_id = ?', [grantId, organizationId])
}

/** Records consent to `scope` (replacing an earlier one, revoked or not); returns the grant. */
export async function saveGrant(
  tx: Tx,
  input: { id: string; organizationId: string; userId: string; clientId: string; scope: string; now: number },
): Promise<GrantRow> {
  const row = await tx.raw.get<GrantRow>(
    `INSERT INTO oauth_grants (id, organization_id, user_id, client_id, scope, created_at, updated_at, revoked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, updated_at = excluded.updated_at,
       created_at = CASE WHEN oauth_grants.revoked_at IS NULL THEN oauth_grants.created_at ELSE excluded.created_at END,
       revoked_at = NULL
     RETURNING *`,
    [input.id, input.organizationId, input.userId, input.clientId, input.scope, input.now, input.now],
  )
  return row!
}

/** Revokes a live grant; returns it, or undefined when it was not live. */
export async function revokeGrant(tx: Tx, grantId: string, now: number): Promise<GrantRow | undefined> {
  return tx.raw.get<GrantRow>('UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING *', [now, grantId])
}

/** The live browser session of a sign-in cookie. */
export async function findBrowserSession(db: Queries, cookieHash: string, now: number) {
  return db.raw.get<{ id: string; organization_id: string; user_id: string; created_at: number; auth_methods: string }>(
    "SELECT id, organization_id, user_id, created_at, auth_methods FROM sessions WHERE cookie_hash = ? AND kind = 'browser' AND revoked_at IS NULL AND expires_at > ?",
    [cookieHash, now],
  )
}

/** Revokes every live token family of a user with a client; returns [id, until] pairs to remember as revoked. */
export async function revokeClientSessions(
  tx: Tx,
  userId: string,
  clientId: string,
  reason: string,
  now: number,
): Promise<[string, number][]> {
  const rows = await tx.raw.all<{ id: string; until: number }>(
    "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE client_id = ? AND user_id = ? AND kind = 'oauth' AND revoked_at IS NULL RETURNING id, access_expires_at AS until",
    [now, reason, clientId, userId],
  )
  return rows.map((r) => [r.id, Number(r.until)])
}

/** Revokes the token families opened from a browser session (without offline_access: they end with it). */
export async function revokeOnlineChildren(tx: Tx, browserSessionId: string, reason: string, now: number): Promise<[string, number][]> {
  const rows = await tx.raw.all<{ id: string; until: number; scope: string | null }>(
    "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE parent_session_id = ? AND kind = 'oauth' AND revoked_at IS NULL AND (scope IS NULL OR (' ' || scope || ' ') NOT LIKE '% offline_access %') RETURNING id, access_expires_at AS until, scope",
    [now, reason, browserSessionId],
  )
  return rows.map((r) => [r.id, Number(r.until)])
}

/** The browser session a client's tokens came from: when the user signed in (the ID token's auth_time), and whether it was revoked. */
export async function findSignIn(db: Queries, browserSessionId: string) {
  const row = await db.raw.get<{ created_at: number; revoked_at: number | null }>(
    "SELECT created_at, revoked_at FROM sessions WHERE id = ? AND kind = 'browser'",
    [browserSessionId],
  )
  return row && { signedInAt: Number(row.created_at), revoked: row.revoked_at !== null }
}

/**
 * Inside a code exchange: findSignIn, the browser session's row locked until commit. Invariant: a logout
 * or a password change that ends the sign-in waits for the exchange, so it ends the family it opens.
 */
export async function lockSignIn(tx: Tx, browserSessionId: string) {
  const row = await tx.raw.get<{ created_at: number; revoked_at: number | null }>(
    `SELECT created_at, revoked_at FROM sessions WHERE id = ? AND kind = 'browser'${tx.forUpdate}`,
    [browserSessionId],
  )
  return row && { signedInAt: Number(row.created_at), revoked: row.revoked_at !== null }
}

/** The conditions of a user's grants list: live ones, of clients that still exist. */
export function liveGrantsOf(userId: string): Condition[] {
  return [
    { sql: 'oauth_grants.user_id = ? AND oauth_grants.revoked_at IS NULL', params: [userId] },
    { sql: 'EXISTS (SELECT 1 FROM oauth_clients WHERE oauth_clients.id = oauth_grants.client_id)', params: [] },
  ]
}
