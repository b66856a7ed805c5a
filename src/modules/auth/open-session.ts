// Inside a sign-in or refresh transaction: a new session with its first refresh token, or the next
// refresh token of a session, and the access token to sign once the transaction has committed.
import type { AppContext } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { insertRefreshToken, insertSession, noteAccessIssued } from './store.ts'
import {
  accessClaims,
  hashToken,
  newRefreshToken,
  type PendingTokens,
  type SessionClaims,
  type SessionKind,
  type SessionMeta,
  sessionEnd,
  type TokenSubject,
} from './tokens.ts'

type Issuer = Pick<AppContext, 'config' | 'keys'>

/** Picks the signing key, records that it and the session sign until `exp`, and builds the claims. */
async function prepareAccess(tx: Tx, app: Issuer, subject: TokenSubject, session: SessionClaims, now: number) {
  const { claims, iat, exp } = accessClaims(app.config, subject, session, now)
  const { kid } = await app.keys.signer(now, tx)
  await app.keys.recordUse(tx, kid, exp * 1000)
  await noteAccessIssued(tx, session.id, exp * 1000, now)
  return { kid, claims, expiresIn: exp - iat }
}

/** The next refresh token: it expires REFRESH_TOKEN_TTL from now or at the session's end, whichever comes first. */
async function addRefreshToken(tx: Tx, app: Issuer, session: SessionClaims, generation: number, now: number): Promise<string> {
  const token = newRefreshToken()
  const expiresAt = Math.min(now + app.config.refreshTokenTtlS * 1000, sessionEnd(app.config, session.createdAt))
  await insertRefreshToken(tx, {
    id: prefixedId('rtk'),
    session_id: session.id,
    token_hash: hashToken(token),
    generation,
    created_at: now,
    expires_at: expiresAt,
    consumed_at: null,
  })
  return token
}

/** A new session, its first refresh token, and the access token to sign. */
export async function openSession(
  tx: Tx,
  app: Issuer,
  input: { subject: TokenSubject; meta: SessionMeta; kind: SessionKind; now: number },
): Promise<PendingTokens & { sessionId: string }> {
  const { subject, meta, kind, now } = input
  const session: SessionClaims = { id: prefixedId('ses'), createdAt: now, ...kind }
  await insertSession(tx, {
    id: session.id,
    organization_id: subject.organization_id,
    user_id: subject.id,
    ip: meta.ip,
    user_agent: meta.userAgent,
    created_at: now,
    last_used_at: now,
    access_expires_at: 0,
    expires_at: 0,
    auth_methods: JSON.stringify(kind.authMethods),
    mfa_enrollment_only: kind.mfaEnrollmentOnly,
    revoked_at: null,
    revoked_reason: null,
    kind: 'api',
    client_id: null,
    scope: null,
    parent_session_id: null,
    cookie_hash: null,
  })
  const refreshToken = await addRefreshToken(tx, app, session, 1, now)
  return { sessionId: session.id, ...(await prepareAccess(tx, app, subject, session, now)), refreshToken }
}

/** After the presented refresh token was consumed: its successor and a new access token. */
export async function continueSession(
  tx: Tx,
  app: Issuer,
  input: { subject: TokenSubject; session: SessionClaims; generation: number; now: number },
): Promise<PendingTokens> {
  const { subject, session, generation, now } = input
  const refreshToken = await addRefreshToken(tx, app, session, generation + 1, now)
  return { ...(await prepareAccess(tx, app, subject, session, now)), refreshToken }
}
