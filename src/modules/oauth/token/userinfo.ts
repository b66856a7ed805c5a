// GET|POST /userinfo (OpenID Connect Core §5.3): the claims of the access token's user, by the token's
// scopes: `sub` always (the ID token's), profile -> name and updated_at (a number), email -> email and
// email_verified. Only an OAuth client's user token carrying `openid` reaches it. email_verified is
// false: nobody proves owning an address here (administrators create users by e-mail).
import type { AppContext, RequestMeta } from '../../../context.ts'
import { authenticateAccessToken } from '../../auth/index.ts'
import { findUserInOrg } from '../../users/index.ts'
import { asBearerError, BearerError } from './bearer.ts'

export async function userinfo(app: AppContext, input: { token: string; request: RequestMeta }) {
  const actor = await authenticateAccessToken(app, input.token, input.request).catch((error: unknown) => {
    throw asBearerError(error)
  })
  const { credential } = actor
  if (credential.type !== 'oauth' || !credential.scopes.includes('openid'))
    throw new BearerError(403, 'insufficient_scope', 'The access token must be issued to a client with the openid scope')
  const user = await findUserInOrg(app.db, actor.organizationId, actor.userId)
  if (!user) throw new BearerError(401, 'invalid_token', 'The user of this token is gone')
  const claims: Record<string, unknown> = { sub: user.id }
  if (credential.scopes.includes('profile')) {
    claims.name = user.name
    claims.updated_at = Math.floor(Number(user.updated_at) / 1000)
  }
  if (credential.scopes.includes('email')) {
    claims.email = user.email
    claims.email_verified = false
  }
  return claims
}
