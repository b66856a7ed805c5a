// The auth module's SQL: sessions, their refresh tokens and revoked access tokens; the per-request
// user check (the hottest read of the server); a password change; last-seen times; and the cleanup of
// expired credentials. Writes take the caller's transaction; what a request or a sign-in runs is raw
// SQL (hot paths).
import type { Queries, Tx } from '../../db/database.ts'
import { defineList } from '../../db/list.ts'
import { RATES_COLUMN } from '../rate-limits/index.ts'
import type { RefreshTokensTable, SessionsTable } from './table.ts'

export type SessionRow = SessionsTable
export type RefreshTokenRow = RefreshTokensTable

/** Live sessions of a user, newest first (the user_id condition uses the sessions_user index). */
export const SESSION_LIST = defineList('sessions', { sorts: ['created_at'] })

export async function insertSession(tx: Tx, row: SessionRow): Promise<void> {
  await tx.kysely.insertInto('sessions').values(row).execute()
}

/** A new refresh token of the session, which lives as long as its newest refresh token. */
export async function insertRefreshToken(tx: Tx, row: RefreshTokenRow): Promise<void> {
  await tx.raw.run(
    'INSERT INTO refresh_tokens (id, session_id, token_hash, generation, created_at, expires_at, consumed_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
    [row.id, row.session_id, row.token_hash, row.generation, row.created_at, row.expires_at],
  )
  await tx.raw.run('UPDATE sessions SET expires_at = ? WHERE id = ?', [row.expires_at, row.session_id])
}

// max() of two values is spelt differently by each engine (max / greatest): a CASE is the same on both.
const ACCESS_ISSUED =
  'UPDATE sessions SET access_expires_at = CASE WHEN access_expires_at < ? THEN ? ELSE access_expires_at END, last_used_at = ? WHERE id = ?'

/** An access token valid until `expiresAt` was issued for the session: its revocation must outlive it. */
export async function noteAccessIssued(tx: Tx, sessionId: string, expiresAt: number, now: number): Promise<void> {
  await tx.raw.run(ACCESS_ISSUED, [expiresAt, expiresAt, now, sessionId])
}

/** When a session without refresh tokens ends (an OAuth client's family without offline access). */
export async function setSessionExpiry(tx: Tx, sessionId: string, expiresAt: number): Promise<void> {
  await tx.raw.run('UPDATE sessions SET expires_at = ? WHERE id = ?', [expiresAt, sessionId])
}

/** Revokes a live session; returns until when its access tokens must be refused (undefined if it was not live). */
export async function revokeSession(tx: Tx, sessionId: string, reason: string, now: number): Promise<number | undefined> {
  const row = await tx.raw.get<{ until: number }>(
    'UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL RETURNING access_expires_at AS until',
    [now, reason, sessionId],
  )
  return row === undefined ? undefined : Number(row.until)
}

/** Revokes every live session of a user (except one, e.g. the caller's); returns [id, until] pairs to remember. */
export async function revokeUserSessions(
  tx: Tx,
  userId: string,
  reason: string,
  now: number,
  except?: string,
): Promise<[string, number][]> {
  // Invariant: no token family outlives its user's sessions' end. A code exchange holds its browser
  // session's row (oauth findSignIn) until it commits: waiting here for those rows lets the UPDATE below
  // see the families they opened.
  await tx.raw.all(`SELECT id FROM sessions WHERE user_id = ? AND kind = 'browser' AND revoked_at IS NULL${tx.forUpdate}`, [userId])
  const rows = await tx.raw.all<{ id: string; until: number }>(
    `UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL${except ? ' AND id <> ?' : ''} RETURNING id, access_expires_at AS until`,
    except ? [now, reason, userId, except] : [now, reason, userId],
  )
  return rows.map((r) => [r.id, Number(r.until)])
}

/**
 * Live (not revoked, not expired) sign-ins of a user, oldest first: what the session limit counts. The
 * token families of OAuth clients (kind `oauth`) are not sign-ins: the browser session they came from is.
 */
export async function liveSessionIds(db: Queries, userId: string, now: number): Promise<string[]> {
  const rows = await db.raw.all<{ id: string }>(
    "SELECT id FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? AND kind <> 'oauth' ORDER BY created_at, id",
    [userId, now],
  )
  return rows.map((r) => r.id)
}

export async function findLiveSession(
  db: Queries,
  organizationId: string,
  sessionId: string,
  now: number,
): Promise<{ id: string; user_id: string } | undefined> {
  return db.raw.get('SELECT id, user_id FROM sessions WHERE id = ? AND organization_id = ? AND revoked_at IS NULL AND expires_at > ?', [
    sessionId,
    organizationId,
    now,
  ])
}

/**
 * Inside a write transaction: a refresh token by its hash with its session, the session's row locked
 * first. Invariant: a refresh token rotates once, and no token is issued for a session being revoked:
 * every rotation and revocation of the family goes through this one row, so the token is read after
 * the previous holder committed.
 */
export async function lockRefreshToken(tx: Tx, tokenHash: string): Promise<{ token: RefreshTokenRow; session: SessionRow } | undefined> {
  const session = await tx.raw.get<SessionRow>(
    `SELECT * FROM sessions WHERE id = (SELECT session_id FROM refresh_tokens WHERE token_hash = ?)${tx.forUpdate}`,
    [tokenHash],
  )
  if (!session) return undefined
  const token = await tx.raw.get<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?', [tokenHash])
  return token && { token, session }
}

/** A refresh token by its hash, with the session it belongs to. */
export async function findRefreshToken(
  db: Queries,
  tokenHash: string,
): Promise<{ token: RefreshTokenRow; session: SessionRow } | undefined> {
  const token = await db.raw.get<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?', [tokenHash])
  if (!token) return undefined
  const session = await db.raw.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [token.session_id])
  return session && { token, session }
}

export async function consumeRefreshToken(tx: Tx, id: string, now: number): Promise<void> {
  await tx.raw.run('UPDATE refresh_tokens SET consumed_at = ? WHERE id = ?', [now, id])
}

/** Remembers a revoked access token until it expires (survives a restart). */
export async function insertRevokedToken(tx: Tx, jti: string, expiresAt: number): Promise<void> {
  await tx.raw.run('INSERT INTO revoked_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING', [jti, expiresAt])
}

/** What is revoked and not yet expired: loaded at boot. */
export async function liveRevocations(db: Queries, now: number) {
  const tokens = await db.raw.all<{ jti: string; expires_at: number }>('SELECT jti, expires_at FROM revoked_tokens WHERE expires_at > ?', [
    now,
  ])
  const sessions = await db.raw.all<{ id: string; until: number }>(
    'SELECT id, access_expires_at AS until FROM sessions WHERE revoked_at IS NOT NULL AND access_expires_at > ?',
    [now],
  )
  return {
    tokens: tokens.map((r) => [r.jti, Number(r.expires_at)] as const),
    sessions: sessions.map((r) => [r.id, Number(r.until)] as const),
  }
}

// Two lookups by primary key in one statement: the per-request check while memory may be behind.
const REVOKED = `SELECT (SELECT count(*) FROM revoked_tokens WHERE jti = ?)
  + (SELECT count(*) FROM sessions WHERE id = ? AND revoked_at IS NOT NULL) AS n`

/** Whether the database records the token or its session as revoked. */
export async function revokedInDatabase(db: Queries, jti: string, sessionId: string): Promise<boolean> {
  const row = await db.raw.get<{ n: number }>(REVOKED, [jti, sessionId])
  return Number(row?.n ?? 0) > 0
}

/** Last-seen time of a session, outside any transaction (the writer lock is taken by the statement). */
export async function touchSession(db: Queries, sessionId: string, now: number): Promise<void> {
  await db.raw.run('UPDATE sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?', [now, sessionId, now])
}

export interface UserState {
  role: string
  status: string
  allowed_ips: string
  rates: string | null
}

// Scalar subqueries, not a JOIN: through bun:sqlite the JOIN costs ~12 µs a call, this ~4 µs.
const USER_STATE = `SELECT role, status, (SELECT allowed_ips FROM organizations WHERE id = users.organization_id) AS allowed_ips,
  (SELECT ${RATES_COLUMN} FROM organizations WHERE id = users.organization_id) AS rates FROM users WHERE id = ? AND organization_id = ?`

/** The user as it is now, with its organization's allowlist and rates: read on every request. */
export async function userState(db: Queries, userId: string, organizationId: string): Promise<UserState | undefined> {
  return db.raw.get<UserState>(USER_STATE, [userId, organizationId])
}

/** Last use of a personal access token, outside any transaction. */
export async function touchApiKey(db: Queries, keyId: string, ip: string | null, now: number): Promise<void> {
  await db.raw.run('UPDATE api_keys SET last_used_at = ?, last_used_ip = ? WHERE id = ?', [now, ip, keyId])
}

/** Deletes what nobody can present any more: revoked-token records past their expiry, refresh tokens expired or of ended sessions. */
export async function deleteExpiredCredentials(tx: Tx, now: number) {
  return {
    revokedTokens: await tx.raw.run('DELETE FROM revoked_tokens WHERE expires_at <= ?', [now]),
    refreshTokens: await tx.raw.run(
      'DELETE FROM refresh_tokens WHERE expires_at <= ? OR session_id IN (SELECT id FROM sessions WHERE revoked_at IS NOT NULL)',
      [now],
    ),
  }
}
