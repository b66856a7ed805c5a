// authenticate: the request's credential -> the Actor, or 401. An access token is RS256 with one of
// our keys, then issuer, audience, nbf and exp (once per token, then cached until it expires); then,
// on every request, revocation (failing closed: revocations.ts), the user as it is now (a disabled
// user's tokens die at once, and permissions follow the user's current role) and the organization's
// IP allowlist. Personal access tokens go to the api-keys module. Runs on every request: kept lean on
// purpose (one read, on the read connection; the RSA check only for a token not seen before).
import type { AppContext, RequestMeta, UserActor } from '../../context.ts'
import type { VerifiedClaims } from '../../ports.ts'
import { isRole, roleGrants } from '../access/index.ts'
import { authenticateApiKey } from '../api-keys/index.ts'
import { ratesFromColumn } from '../rate-limits/index.ts'
import { presentedCredential, unauthorized } from './credential.ts'
import { assertIpAllowed } from './ip-gate.ts'
import { userState } from './store.ts'
import { hasCanonicalSegments, verifyJwt } from './verify-jwt.ts'

/** The actor of a request, or 401 (and the IP allowlist's 403). */
export async function authenticate(app: AppContext, request: Request, meta: RequestMeta): Promise<UserActor> {
  const presented = presentedCredential(request)
  if (presented.kind === 'api_key') return authenticateApiKey(app, presented.token, meta)
  const claims = knownClaims(app, presented.token) ?? (await verifiedClaims(app, presented.token))
  // From memory (synchronous, the common case); from the database while memory may have missed another
  // instance's revocations.
  const revoked = app.ports.revocations.revoked(claims.jti, claims.sid)
  if (revoked === true || (revoked !== false && (await revoked))) throw unauthorized('TOKEN_INVALID', 'The access token has been revoked')
  const user = await userState(app.db, claims.sub, claims.organizationId)
  if (user?.status !== 'active' || !isRole(user.role)) throw unauthorized('TOKEN_INVALID', 'The user of this token is disabled or gone')
  const ranges = app.allowlists.ranges(user.allowed_ips)
  if (ranges.length > 0)
    await assertIpAllowed(
      app,
      ranges,
      { organizationId: claims.organizationId, actor: { type: 'user', id: claims.sub, credentialId: claims.sid } },
      meta,
    )
  app.lastSeen.session(claims.sid, app.clock.now())
  return {
    kind: 'user',
    userId: claims.sub,
    organizationId: claims.organizationId,
    role: user.role,
    grants: claims.mfaEnrollmentOnly ? [] : roleGrants(user.role),
    credential: {
      type: 'session',
      id: claims.sid,
      tokenId: claims.jti,
      tokenExpiresAt: claims.exp * 1000,
      mfaEnrollmentOnly: claims.mfaEnrollmentOnly,
    },
    request: meta,
    rates: ratesFromColumn(user.rates),
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
  const { sub, jti, sid, organization_id: organizationId, exp } = result
  if (
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    typeof sid !== 'string' ||
    typeof organizationId !== 'string' ||
    typeof exp !== 'number'
  )
    throw malformed()
  const claims = { sub, jti, sid, organizationId, exp, mfaEnrollmentOnly: result.mfa_enrollment_required === true }
  app.ports.verifiedTokens.remember(token, claims)
  return claims
}
