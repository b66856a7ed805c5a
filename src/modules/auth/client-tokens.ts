// The holder of an OAuth client's access token, checked on every request like any token: the client
// must still be registered in the token's organization (a deleted client's tokens die at once), and the
// grants are the acting user's CURRENT role narrowed by the token's scopes (a demotion narrows them at
// once). A user's token (authorization code, refresh) acts for its user; a client-credentials token
// (`sub` is the client id) for the user the client acts for (oauth-clients: clientActingUserId).
import type { AppContext } from '../../context.ts'
import type { VerifiedClaims } from '../../ports.ts'
import { type Grant, type Role, roleGrants } from '../access/index.ts'
import { clientActingUserId, findClient, grantsWithinScopes } from '../oauth-clients/index.ts'
import { activeUserState, type TokenHolder } from './active-user.ts'
import { unauthorized } from '../../credential.ts'

// Effective grants by role and scope: a handful of distinct pairs in practice.
const effective = new Map<string, readonly Grant[]>()

function scopedGrants(role: Role, scope: string): readonly Grant[] {
  const key = `${role} ${scope}`
  let grants = effective.get(key)
  if (!grants) {
    if (effective.size > 1000) effective.clear()
    effective.set(key, (grants = grantsWithinScopes(roleGrants(role), scope.split(' '))))
  }
  return grants
}

export async function clientHolder(app: AppContext, claims: VerifiedClaims): Promise<TokenHolder> {
  const clientId = claims.clientId!
  const scope = claims.scope ?? ''
  const client = await findClient(app.db, clientId)
  if (client?.organization_id !== claims.organizationId) throw unauthorized('TOKEN_INVALID', 'The OAuth client of this token is gone')
  const ofClient = claims.sub === clientId
  const userId = ofClient ? await clientActingUserId(app.db, client) : claims.sub
  if (userId === undefined) throw unauthorized('TOKEN_INVALID', 'The user this client acts for is disabled or gone')
  const state = await activeUserState(app, userId, claims.organizationId)
  const role = state.role as Role
  const scopes = scope === '' ? [] : scope.split(' ')
  const token = { id: claims.sid, tokenId: claims.jti, tokenExpiresAt: claims.exp * 1000, clientId, scopes }
  return {
    userId,
    organizationId: claims.organizationId,
    role,
    grants: scopedGrants(role, scope),
    credential: ofClient ? { ...token, type: 'oauth_client' } : { ...token, type: 'oauth' },
    claims,
    state,
  }
}
