// The tokens of a session: hashing what is stored, the refresh token, the claims of an access token,
// and signing it (after the transaction that issued it committed: no crypto while the writer is held).
// A session ends SESSION_MAX_AGE after its sign-in at the latest: no token of it outlives that.
import type { Config } from '../../config.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { SigningKeys } from '../../ports.ts'
import { type Role, roleGrants } from '../access/index.ts'

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
export interface SessionClaims extends SessionKind {
  id: string
  createdAt: number
}

/** Whom the tokens are for (a user row has these fields). */
export interface TokenSubject {
  id: string
  organization_id: string
  role: string
}

/** What an OAuth client's access token adds: its client id and scopes, and the permissions those scopes leave the user. */
export interface ClientClaims {
  clientId: string
  /** Space-separated. */
  scope: string
  permissions: readonly string[]
}

/** What a committed transaction hands to mintTokens(): everything but the signature. */
export interface PendingTokens {
  kid: string
  claims: Record<string, unknown>
  refreshToken: string
  expiresIn: number
}

/** When a session opened at `createdAt` ends whatever happens (ms). */
export function sessionEnd(config: Pick<Config, 'sessionMaxAgeS'>, createdAt: number): number {
  return createdAt + config.sessionMaxAgeS * 1000
}

// Lives in src/lib: the api-keys and oauth-clients modules hash their secrets the same way without importing auth.
export { hashToken } from '../../lib/token-hash.ts'

export function newRefreshToken(): string {
  return `rt_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
}

/** The claims of an access token of `session` issued at `now` (to `client`, if an OAuth client's), and its expiry (unix seconds). */
export function accessClaims(config: Config, subject: TokenSubject, session: SessionClaims, now: number, client?: ClientClaims) {
  const iat = Math.floor(now / 1000)
  const exp = Math.min(iat + config.accessTokenTtlS, Math.floor(sessionEnd(config, session.createdAt) / 1000))
  const claims: Record<string, unknown> = {
    iss: config.authUrl,
    aud: config.apiAudience,
    sub: subject.id,
    iat,
    nbf: iat,
    exp,
    jti: prefixedId('at'),
    organization_id: subject.organization_id,
    roles: [subject.role],
    permissions: session.mfaEnrollmentOnly ? [] : [...(client?.permissions ?? roleGrants(subject.role as Role))],
    sid: session.id,
    auth_time: Math.floor(session.createdAt / 1000),
    amr: session.authMethods,
  }
  if (session.mfaEnrollmentOnly) claims.mfa_enrollment_required = true
  if (client) {
    claims.client_id = client.clientId
    claims.scope = client.scope
  }
  return { claims, iat, exp }
}

/**
 * The claims of a client-credentials access token: no user session, so `sub` and `sid` are the client
 * id; `permissions` are those of the user it acts for within its scopes, which the API recomputes on
 * every request (the acting user's current role).
 */
export function clientCredentialsClaims(config: Config, organizationId: string, client: ClientClaims, now: number) {
  const iat = Math.floor(now / 1000)
  const exp = iat + config.accessTokenTtlS
  const claims: Record<string, unknown> = {
    iss: config.authUrl,
    aud: config.apiAudience,
    sub: client.clientId,
    iat,
    nbf: iat,
    exp,
    jti: prefixedId('at'),
    organization_id: organizationId,
    roles: [],
    permissions: [...client.permissions],
    sid: client.clientId,
    client_id: client.clientId,
    scope: client.scope,
  }
  return { claims, iat, exp }
}

/** Signs the prepared access token (after commit: no crypto inside a transaction). */
export async function mintTokens(keys: Pick<SigningKeys, 'sign'>, pending: PendingTokens) {
  return {
    access_token: await keys.sign(pending.kid, pending.claims),
    refresh_token: pending.refreshToken,
    token_type: 'Bearer' as const,
    expires_in: pending.expiresIn,
  }
}
