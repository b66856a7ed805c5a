// authenticate: `Authorization: Bearer <JWT>` -> the Actor, or 401. RS256 with one of our keys only;
// then issuer, audience, nbf and exp (once per token, then cached until it expires); then, on every
// request, revocation and the user as it is now (a disabled user's tokens die at once, and
// permissions follow the user's current role). Runs on every request: kept lean on purpose.
import type { AppDeps, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { roleGrants } from '../access/match.ts'
import { isRole } from '../access/permissions.ts'
import type { VerifiedClaims } from './verified-tokens.ts'
import { verifyJwt } from './verify-jwt.ts'

const REALM = 'Bearer realm="switchboard"'

function unauthorized(code: 'UNAUTHENTICATED' | 'TOKEN_INVALID' | 'TOKEN_EXPIRED', message: string): AppError {
  const challenge = code === 'UNAUTHENTICATED' ? REALM : `${REALM}, error="invalid_token", error_description="${message}"`
  return new AppError(code, message, { headers: { 'www-authenticate': challenge } })
}

/** The credential of a request: only ever from the Authorization header, never from the URL. */
export function bearerToken(request: Request): string {
  // The substring test first: parsing the URL of every request would cost more than the check.
  if (request.url.includes('access_token') && new URL(request.url).searchParams.has('access_token')) {
    throw unauthorized('TOKEN_INVALID', 'Tokens must be sent in the Authorization header, never in the URL')
  }
  const header = request.headers.get('authorization')
  if (header === null || header.trim() === '') throw unauthorized('UNAUTHENTICATED', 'Send an access token: Authorization: Bearer <token>')
  const match = /^Bearer +(\S+)$/i.exec(header.trim())
  if (!match) throw unauthorized('TOKEN_INVALID', 'The Authorization header must be "Bearer <token>"')
  return match[1]!
}

export function authenticate(deps: AppDeps, request: Request): UserActor {
  const token = bearerToken(request)
  const claims = verifiedClaims(deps, token)
  if (deps.revocations.isTokenRevoked(claims.jti) || deps.revocations.isSessionRevoked(claims.sid)) throw unauthorized('TOKEN_INVALID', 'The access token has been revoked')
  const user = deps.sqlite.query<{ role: string; status: string }, [string, string]>('SELECT role, status FROM users WHERE id = ? AND organization_id = ?').get(claims.sub, claims.organizationId)
  if (!user || user.status !== 'active' || !isRole(user.role)) throw unauthorized('TOKEN_INVALID', 'The user of this token is disabled or gone')
  return {
    kind: 'user',
    userId: claims.sub,
    organizationId: claims.organizationId,
    role: user.role,
    grants: roleGrants(user.role),
    sessionId: claims.sid,
    tokenId: claims.jti,
    tokenExpiresAt: claims.exp * 1000,
  }
}

const REQUIRED = ['sub', 'jti', 'iat', 'nbf', 'exp', 'sid', 'organization_id'] as const

/** The claims of a token whose signature, issuer, audience and times hold; cached until it expires. */
function verifiedClaims(deps: AppDeps, token: string): VerifiedClaims {
  const now = Math.floor(deps.clock.now() / 1000)
  const cached = deps.verifiedTokens.get(token, now)
  if (cached === 'expired') throw unauthorized('TOKEN_EXPIRED', 'The access token has expired')
  if (cached) return cached
  const result = verifyJwt(token, (kid) => deps.keyring.verificationKey(kid), { issuer: deps.config.authUrl, audience: deps.config.apiAudience, now, required: REQUIRED })
  if (result === 'expired') throw unauthorized('TOKEN_EXPIRED', 'The access token has expired')
  if (typeof result === 'string') throw unauthorized('TOKEN_INVALID', 'The access token is malformed, forged or not ours')
  const { sub, jti, sid, organization_id: organizationId, exp } = result
  if (typeof sub !== 'string' || typeof jti !== 'string' || typeof sid !== 'string' || typeof organizationId !== 'string' || typeof exp !== 'number') {
    throw unauthorized('TOKEN_INVALID', 'The access token is malformed, forged or not ours')
  }
  const claims = { sub, jti, sid, organizationId, exp }
  deps.verifiedTokens.remember(token, claims)
  return claims
}
