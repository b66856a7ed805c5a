// Inside a sign-in or refresh transaction: a new session with its first refresh token, or the next
// refresh token of a session, and the access token to sign once the transaction has committed.
import type { AppContext } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { insertRefreshToken, insertSession, noteAccessIssued, type SessionRow, setSessionExpiry } from './store.ts'
import {
  accessClaims,
  type ClientClaims,
  clientCredentialsClaims,
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
async function prepareAccess(tx: Tx, app: Issuer, subject: TokenSubject, session: SessionClaims, now: number, client?: ClientClaims) {
  const { claims, iat, exp } = accessClaims(app.config, subject, session, now, client)
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

/** A new session's row: what every kind shares, then what is its kind's own (`api` by default). */
export function newSessionRow(
  input: { id: string; subject: Pick<TokenSubject, 'id' | 'organization_id'>; meta: SessionMeta; authMethods: string[]; now: number },
  own: Partial<SessionRow> = {},
): SessionRow {
  return {
    id: input.id,
    organization_id: input.subject.organization_id,
    user_id: input.subject.id,
    ip: input.meta.ip,
    user_agent: input.meta.userAgent,
    created_at: input.now,
    last_used_at: input.now,
    access_expires_at: 0,
    expires_at: 0,
    auth_methods: JSON.stringify(input.authMethods),
    mfa_enrollment_only: false,
    revoked_at: null,
    revoked_reason: null,
    kind: 'api',
    client_id: null,
    scope: null,
    parent_session_id: null,
    cookie_hash: null,
    ...own,
  }
}

/** A new session, its first refresh token, and the access token to sign. */
export async function openSession(
  tx: Tx,
  app: Issuer,
  input: { subject: TokenSubject; meta: SessionMeta; kind: SessionKind; now: number },
): Promise<PendingTokens & { sessionId: string }> {
  const { subject, meta, kind, now } = input
  const session: SessionClaims = { id: prefixedId('ses'), createdAt: now, ...kind }
  const base = { id: session.id, subject, meta, authMethods: kind.authMethods, now }
  await insertSession(tx, newSessionRow(base, { mfa_enrollment_only: kind.mfaEnrollmentOnly }))
  const refreshToken = await addRefreshToken(tx, app, session, 1, now)
  return { sessionId: session.id, ...(await prepareAccess(tx, app, subject, session, now)), refreshToken }
}

/** After the presented refresh token was consumed: its successor and a new access token (an OAuth client's: with `client`). */
export async function continueSession(
  tx: Tx,
  app: Issuer,
  input: { subject: TokenSubject; session: SessionClaims; generation: number; now: number; client?: ClientClaims },
): Promise<PendingTokens> {
  const { subject, session, generation, now } = input
  const refreshToken = await addRefreshToken(tx, app, session, generation + 1, now)
  return { ...(await prepareAccess(tx, app, subject, session, now, input.client)), refreshToken }
}

/** What an OAuth token issue hands over after commit: a refresh token only when one was issued. */
export interface PendingClientTokens {
  kid: string
  claims: Record<string, unknown>
  expiresIn: number
  refreshToken: string | undefined
}

/**
 * An authorization code's exchange: a session of kind `oauth` (the client's token family for the user,
 * not counted by the session limit; `parentSessionId` is the browser session the user signed in with),
 * its first refresh token when offline access was granted, and the access token.
 */
export async function openClientSession(
  tx: Tx,
  app: Issuer,
  input: {
    subject: TokenSubject
    meta: SessionMeta
    kind: SessionKind
    client: ClientClaims
    parentSessionId: string
    withRefreshToken: boolean
    now: number
  },
): Promise<PendingClientTokens & { sessionId: string }> {
  const { subject, meta, kind, client, now } = input
  const session: SessionClaims = { id: prefixedId('ses'), createdAt: now, ...kind }
  const base = { id: session.id, subject, meta, authMethods: kind.authMethods, now }
  await insertSession(
    tx,
    newSessionRow(base, { kind: 'oauth', client_id: client.clientId, scope: client.scope, parent_session_id: input.parentSessionId }),
  )
  const refreshToken = input.withRefreshToken ? await addRefreshToken(tx, app, session, 1, now) : undefined
  const access = await prepareAccess(tx, app, subject, session, now, client)
  // Without a refresh token the family lives as long as its one access token.
  if (refreshToken === undefined) await setSessionExpiry(tx, session.id, Number(access.claims.exp) * 1000)
  return { sessionId: session.id, ...access, refreshToken }
}

/** A client-credentials access token (no session, no refresh token): the key that signs it records its use. */
export async function prepareClientCredentials(
  tx: Tx,
  app: Issuer,
  input: { organizationId: string; client: ClientClaims; now: number },
): Promise<PendingClientTokens> {
  const { claims, iat, exp } = clientCredentialsClaims(app.config, input.organizationId, input.client, input.now)
  const { kid } = await app.keys.signer(input.now, tx)
  await app.keys.recordUse(tx, kid, exp * 1000)
  return { kid, claims, expiresIn: exp - iat, refreshToken: undefined }
}
