// authenticate: the request's credential -> the Actor, or 401. An access token is RS256 with one of
// our keys, then issuer, audience, nbf and exp (once per token, then cached until it expires); then,
// on every request, revocation (failing closed: revocations.ts), the user as it is now (a disabled
// user's tokens die at once, and permissions follow the user's current role), for an OAuth client's
// token the client as it is now (client-tokens.ts), and the organization's IP allowlist. Personal
// access tokens go to the api-keys module. Runs on every request: kept lean on purpose (one read, on
// the read connection; the RSA check only for a token not seen before).
import type { AppContext, RequestMeta, UserActor } from '../../context.ts'
import type { VerifiedClaims } from '../../ports.ts'
import { type Role, roleGrants } from '../access/index.ts'
import { authenticateApiKey } from '../api-keys/index.ts'
import { ratesFromColumn } from '../rate-limits/index.ts'
import { clientHolder } from './client-tokens.ts'
import { presentedCredential, unauthorized } from '../../credential.ts'
import { assertIpAllowed } from '../organizations/index.ts'
import { activeUserState, type TokenHolder } from './active-user.ts'
import { hasCanonicalSegments, verifyJwt } from './verify-jwt.ts'

export interface AuthenticateOptions {
  /**
   * Record this as a use of the credential (its session's or key's last use, which the agents' idle
   * logout reads). False for a check that is not a request, such as an event stream's heartbeat: an
   * open stream alone must not keep an absent agent signed in.
   */
  recordUse?: boolean
}

/** The actor of a request, or 401 (and the IP allowlist's 403). */
export async function authenticate(
  app: AppContext,
  request: Request,
  meta: RequestMeta,
  options: AuthenticateOptions = {},
): Promise<UserActor> {
  const presented = presentedCredential(request)
  if (presented.kind === 'api_key') return authenticateApiKey(app, presented.token, meta, options)
  return authenticateAccessToken(app, presented.token, meta, options)
}

/** An access token -> the Actor (with the IP allowlist's check), or 401. */
export async function authenticateAccessToken(
  app: AppContext,
  token: string,
  meta: RequestMeta,
  options: AuthenticateOptions = {},
): Promise<UserActor> {
  const holder = await tokenHolder(app, token)
  const ranges = app.allowlists.ranges(holder.state.allowed_ips)
  if (ranges.length > 0) {
    const actor = { type: 'user' as const, id: holder.userId, credentialId: holder.credential.id }
    await assertIpAllowed(app, ranges, { organizationId: holder.organizationId, actor }, meta)
  }
  if (holder.credential.type !== 'oauth_client' && options.recordUse !== false) app.lastSeen.session(holder.credential.id, app.clock.now())
  return {
    kind: 'user',
    userId: holder.userId,
    organizationId: holder.organizationId,
    role: holder.role,
    grants: holder.grants,
    credential: holder.credential,
    request: meta,
    rates: ratesFromColumn(holder.state.rates),
  }
}

/** The holder of a valid, unrevoked access token whose user (and client) are still there; else 401. */
export async function tokenHolder(app: AppContext, token: string): Promise<TokenHolder> {
  const claims = knownClaims(app, token) ?? (await verifiedClaims(app, token))
  // From memory (synchronous, the common case); from the database while memory may have missed another
  // instance's revocations.
  const revoked = app.ports.revocations.revoked(claims.jti, claims.sid)
  if (revoked === true || (revoked !== false && (await revoked))) throw unauthorized('TOKEN_INVALID', 'The access token has been revoked')
  if (claims.clientId !== undefined) return clientHolder(app, claims)
  const state = await activeUserState(app, claims.sub, claims.organizationId)
  return {
    userId: claims.sub,
    organizationId: claims.organizationId,
    role: state.role as Role,
    grants: claims.mfaEnrollmentOnly ? [] : roleGrants(state.role as Role),
    credential: {
      type: 'session',
      id: claims.sid,
      tokenId: claims.jti,
      tokenExpiresAt: claims.exp * 1000,
      mfaEnrollmentOnly: claims.mfaEnrollmentOnly,
    },
    claims,
    state,
  }
}

const REQUIRED = ['sub', 'jti', 'iat', 'nbf', 'exp', 'sid', 'organization_id'] as const
const malformed = () => unauthorized('TOKEN_INVALID', 'The access token is malformed, forged or not ours')

/** The claims of a token verified before (undefined when it was not), or 401 when it has expired since. */
function knownClaims(app: AppContext, token: string): VerifiedClaims | undefined {
  // Before the cache: another spelling of a cached token must not even be looked up.
  if (!hasCanonicalSegments(token)) throw malformed()
  const cached = app.ports.verifiedTokens.get(token, Math.floor(app.clock.now() / 1000))
  if (cached === 'expired') throw unauthorized('TOKEN_EXPIRED', 'The access token has expired')
  return cached
}

/** The claims of a token whose signature, issuer, audience and times hold; cached until it expires. */
async function verifiedClaims(app: AppContext, token: string): Promise<VerifiedClaims> {
  const now = Math.floor(app.clock.now() / 1000)
  const expect = { issuer: app.config.authUrl, audience: app.config.apiAudience, now, required: REQUIRED }
  const keyFor = (kid: string) => app.keys.verificationKey(kid)
  let result = verifyJwt(token, keyFor, expect)
  // A key rotated in by another process: load it (at most once a second) and look again.
  if (result === 'unknown_key' && (await app.keys.reloadKeys())) result = verifyJwt(token, keyFor, expect)
  if (result === 'expired') throw unauthorized('TOKEN_EXPIRED', 'The access token has expired')
  if (typeof result === 'string') throw malformed()
  const { sub, jti, sid, organization_id: organizationId, exp, client_id: clientId, scope } = result
  if (
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    typeof sid !== 'string' ||
    typeof organizationId !== 'string' ||
    typeof exp !== 'number' ||
    (clientId !== undefined && (typeof clientId !== 'string' || typeof scope !== 'string'))
  )
    throw malformed()
  const claims: VerifiedClaims = { sub, jti, sid, organizationId, exp, mfaEnrollmentOnly: result.mfa_enrollment_required === true }
  if (typeof clientId === 'string') Object.assign(claims, { clientId, scope })
  app.ports.verifiedTokens.remember(token, claims)
  return claims
}
