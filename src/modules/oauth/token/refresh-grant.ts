// grant_type=refresh_token: only a refresh token of this client's own token family (another client's, or
// a first-party one, is unknown here), rotated with reuse detection exactly as first-party refresh is
// (auth: rotateRefreshToken). The user's grant to the client must still be live, and the scopes are
// what the family was granted, within what the grant and the client allow now; `scope` may only narrow
// them (RFC 6749 §6). A new ID token keeps iss, sub, aud, auth_time and sid (OIDC Core §12.2).
import type { AppContext, RequestMeta } from '../../../context.ts'
import { type Role, roleGrants } from '../../access/index.ts'
import { appendAudit } from '../../audit/index.ts'
import {
  continueSession,
  type PendingClientTokens,
  type Rotation,
  rotateRefreshToken,
  type SessionRow,
  settleRotation,
} from '../../auth/index.ts'
import { grantsWithinScopes, type OAuthClientRow } from '../../oauth-clients/index.ts'
import { findGrant, findSignIn } from '../store.ts'
import { recordRefusal, type Refusal, refusal } from './audit.ts'
import { type Form, required } from './form.ts'
import type { SignIn } from './id-token.ts'
import { mintClientTokens, type TokenResponseBody } from './issue.ts'

const GRANT = 'refresh_token'

/** The scopes the family may still use: granted to it, and still in the user's grant and the client's registration. */
function liveScopes(session: SessionRow, grantScope: string, client: OAuthClientRow): string[] {
  const granted = new Set(grantScope.split(' '))
  const registered = new Set(JSON.parse(client.scopes) as string[])
  return (session.scope ?? '').split(' ').filter((s) => granted.has(s) && registered.has(s))
}

/** The scopes of the new access token: all live ones, or the narrower set the client asked for. */
function askedScopes(live: string[], asked: string | undefined): string[] | Refusal {
  if (asked === undefined) return live
  const wanted = new Set(asked.split(' ').filter((s) => s !== ''))
  const beyond = [...wanted].filter((s) => !live.includes(s))
  if (beyond.length > 0) return refusal('invalid_scope', 'scope_widened', 'scope may only narrow what was granted')
  return live.filter((s) => wanted.has(s))
}

interface Issued {
  ok: true
  pending: PendingClientTokens
  scope: string
  signIn: SignIn | undefined
}

export async function refreshForClient(
  app: AppContext,
  input: { client: OAuthClientRow; form: Form; request: RequestMeta },
): Promise<TokenResponseBody> {
  const { client, request } = input
  const refreshToken = required(input.form, 'refresh_token')
  const now = app.clock.now()
  const where = { client, grantType: GRANT, request, now }
  const outcome = await app.db.write('oauth.token.refresh', async (tx): Promise<Issued | (Refusal & { rotation?: Rotation })> => {
    const accepts = (session: SessionRow) => session.kind === 'oauth' && session.client_id === client.id
    const rotation = await rotateRefreshToken(tx, app, { refreshToken, request, now, accepts })
    let refused: Refusal | undefined
    if (!rotation.ok) {
      const why = rotation.reuse ? 'refresh_token_reuse' : rotation.ip ? 'ip_not_allowed' : 'refresh_token_invalid'
      refused = refusal('invalid_grant', why, rotation.ip?.message ?? 'The refresh token is invalid, expired or revoked')
      await recordRefusal(tx, where, refused)
      return { ...refused, rotation }
    }
    const { user, session, claims, generation } = rotation
    const grant = await findGrant(tx, user.id, client.id)
    const live = grant && grant.revoked_at === null ? liveScopes(session, grant.scope, client) : []
    if (!live.includes('offline_access'))
      refused = refusal('invalid_grant', 'grant_revoked', 'The user has revoked the access of this client', user.id)
    const scopes = refused ?? askedScopes(live, input.form.get('scope'))
    if (!Array.isArray(scopes)) {
      await recordRefusal(tx, where, { ...scopes, userId: user.id })
      return scopes
    }
    const scope = scopes.join(' ')
    const permissions = grantsWithinScopes(roleGrants(user.role as Role), scopes)
    const pending = await continueSession(tx, app, {
      subject: user,
      session: claims,
      generation,
      now,
      client: { clientId: client.id, scope, permissions },
    })
    await appendAudit(tx, {
      organizationId: session.organization_id,
      actor: { type: 'user', id: user.id, credentialId: session.id },
      event: 'token.refresh',
      target: { type: 'session', id: session.id },
      details: { client_id: client.id, scope },
      request,
      now,
    })
    const parent = session.parent_session_id
    const signedIn = parent === null ? undefined : await findSignIn(tx, parent)
    const signIn: SignIn = {
      userId: user.id,
      clientId: client.id,
      nonce: null,
      authTime: signedIn?.signedInAt ?? Number(session.created_at),
      browserSessionId: parent ?? session.id,
      authMethods: claims.authMethods,
    }
    return { ok: true, pending, scope, signIn: scopes.includes('openid') ? signIn : undefined }
  })
  if (!outcome.ok) {
    if (outcome.rotation) settleRotation(app, outcome.rotation, request)
    throw outcome.error
  }
  return mintClientTokens(app, outcome.pending, outcome.scope, outcome.signIn)
}
