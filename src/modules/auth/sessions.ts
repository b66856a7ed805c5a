// Sessions and their refresh-token family: open one at login, rotate a refresh token, revoke a session.
// A session ends SESSION_MAX_AGE after its sign-in at the latest: no token of it outlives that.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Config } from '../../config.ts'
import type { Tx } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { Keyring } from '../keys/keyring.ts'
import { roleGrants } from '../access/match.ts'
import type { Role } from '../access/permissions.ts'
import { refreshTokens, sessions } from './table.ts'

export interface SessionMeta {
  ip: string | null
  userAgent: string | null
}

/** How the session was established, carried into every access token it issues. */
export interface SessionKind {
  /** RFC 8176 `amr` values: ["pwd"], ["pwd", "otp", "mfa"], … */
  authMethods: string[]
  /** The organization requires MFA and the user has none: tokens for the enrollment routes only. */
  mfaEnrollmentOnly: boolean
}

/** The session fields an access token repeats. */
interface SessionClaims extends SessionKind {
  id: string
  createdAt: number
}

export interface TokenSubject {
  id: string
  organizationId: string
  role: string
}

/** What a committed transaction hands to mintTokens(): everything but the signature. */
export interface PendingTokens {
  kid: string
  claims: Record<string, unknown>
  refreshToken: string
  expiresIn: number
}

/** When a session opened at `createdAt` ends whatever happens (ms). */
export function sessionEnd(config: Config, createdAt: number): number {
  return createdAt + config.sessionMaxAgeS * 1000
}

export function hashToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}

function newRefreshToken(): string {
  return `rt_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
}

/** Prepares the access token of a session: picks the signing key and records that it signs until `exp`. */
function prepareAccess(tx: Tx, deps: { config: Config; keyring: Keyring }, subject: TokenSubject, session: SessionClaims, now: number) {
  const sessionId = session.id
  const iat = Math.floor(now / 1000)
  const exp = Math.min(iat + deps.config.accessTokenTtlS, Math.floor(sessionEnd(deps.config, session.createdAt) / 1000))
  const { kid } = deps.keyring.signer(now, tx)
  deps.keyring.recordUse(tx, kid, exp * 1000)
  tx.update(sessions)
    .set({ accessExpiresAt: sql`max(${sessions.accessExpiresAt}, ${exp * 1000})`, lastUsedAt: now })
    .where(eq(sessions.id, sessionId))
    .run()
  const claims: Record<string, unknown> = {
    iss: deps.config.authUrl,
    aud: deps.config.apiAudience,
    sub: subject.id,
    iat,
    nbf: iat,
    exp,
    jti: prefixedId('at'),
    organization_id: subject.organizationId,
    roles: [subject.role],
    permissions: session.mfaEnrollmentOnly ? [] : [...roleGrants(subject.role as Role)],
    sid: sessionId,
    auth_time: Math.floor(session.createdAt / 1000),
    amr: session.authMethods,
  }
  if (session.mfaEnrollmentOnly) claims.mfa_enrollment_required = true
  return { kid, claims, expiresIn: exp - iat }
}

/**
 * A new refresh token of the session; the session lives as long as its newest refresh token, which
 * expires REFRESH_TOKEN_TTL from now or at the session's end, whichever comes first.
 */
function insertRefreshToken(tx: Tx, config: Config, session: { id: string; createdAt: number }, generation: number, now: number): string {
  const sessionId = session.id
  const token = newRefreshToken()
  const expiresAt = Math.min(now + config.refreshTokenTtlS * 1000, sessionEnd(config, session.createdAt))
  tx.insert(refreshTokens).values({ id: prefixedId('rtk'), sessionId, tokenHash: hashToken(token), generation, createdAt: now, expiresAt }).run()
  tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId)).run()
  return token
}

const PASSWORD_ONLY: SessionKind = { authMethods: ['pwd'], mfaEnrollmentOnly: false }

/** Inside the login transaction: a new session, its first refresh token, and the access token to sign. */
export function openSession(
  tx: Tx,
  deps: { config: Config; keyring: Keyring },
  subject: TokenSubject,
  meta: SessionMeta,
  now: number,
  kind: SessionKind = PASSWORD_ONLY,
): PendingTokens & { sessionId: string } {
  const session = { id: prefixedId('ses'), createdAt: now, ...kind }
  tx.insert(sessions)
    .values({
      id: session.id,
      organizationId: subject.organizationId,
      userId: subject.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      createdAt: now,
      lastUsedAt: now,
      accessExpiresAt: 0,
      authMethods: kind.authMethods,
      mfaEnrollmentOnly: kind.mfaEnrollmentOnly,
    })
    .run()
  const refreshToken = insertRefreshToken(tx, deps.config, session, 1, now)
  return { sessionId: session.id, ...prepareAccess(tx, deps, subject, session, now), refreshToken }
}

/** Inside the refresh transaction, after the presented token was consumed: its successor and a new access token. */
export function continueSession(
  tx: Tx,
  deps: { config: Config; keyring: Keyring },
  subject: TokenSubject,
  session: SessionClaims,
  generation: number,
  now: number,
): PendingTokens {
  const refreshToken = insertRefreshToken(tx, deps.config, session, generation + 1, now)
  return { ...prepareAccess(tx, deps, subject, session, now), refreshToken }
}

/** Revokes a live session; returns until when its access tokens must be refused (undefined if it was not live). */
export function revokeSession(tx: Tx, sessionId: string, reason: string, now: number): number | undefined {
  const row = tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ until: sessions.accessExpiresAt })
    .get()
  return row?.until
}

/** Revokes every live session of a user (except one, e.g. the caller's); returns [id, until] pairs to remember. */
export function revokeUserSessions(tx: Tx, userId: string, reason: string, now: number, except?: string): [string, number][] {
  const rows = tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? sql`${sessions.id} <> ${except}` : undefined))
    .returning({ id: sessions.id, until: sessions.accessExpiresAt })
    .all()
  return rows.map((r) => [r.id, r.until])
}

/** Signs the prepared access token (after commit: no crypto inside a transaction). */
export async function mintTokens(keyring: Keyring, pending: PendingTokens) {
  return {
    access_token: await keyring.sign(pending.kid, pending.claims),
    refresh_token: pending.refreshToken,
    token_type: 'Bearer' as const,
    expires_in: pending.expiresIn,
  }
}
