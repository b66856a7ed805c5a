// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) at the end_session_endpoint: ends the
// browser's session (and the tokens of clients that got no offline_access from it), then sends the
// browser back to post_logout_redirect_uri only when that URI is registered, exactly, on the client the
// id_token_hint (or client_id) names; else our own "signed out" page. Never an open redirect.
import type { AppContext, RequestMeta } from '../../../context.ts'
import { appendAudit } from '../../audit/index.ts'
import { revokeSession } from '../../auth/index.ts'
import { findClient } from '../../oauth-clients/index.ts'
import { findBrowserSession, revokeOnlineChildren } from '../store.ts'
import { CLIENT_ID, collectParams } from './check-request.ts'
import { cookieHash } from './cookies.ts'
import { verifyIdTokenHint } from './id-token-hint.ts'
import { withQuery } from './redirect.ts'

/** The client the request names: the hint's (client_id, if sent, must be one of its audiences), else client_id. */
async function namedClientId(app: Pick<AppContext, 'keys' | 'config'>, params: Map<string, string>): Promise<string | undefined> {
  const hint = params.get('id_token_hint')
  const clientId = params.get('client_id')
  if (hint === undefined) return clientId
  const claims = await verifyIdTokenHint(app, hint)
  if (!claims) return undefined
  if (clientId !== undefined) return claims.audiences.includes(clientId) ? clientId : undefined
  return claims.audiences.length === 1 ? claims.audiences[0] : undefined
}

async function returnAddress(app: Pick<AppContext, 'db' | 'keys' | 'config'>, params: Map<string, string>): Promise<string | undefined> {
  const uri = params.get('post_logout_redirect_uri')
  if (uri === undefined) return undefined
  const clientId = await namedClientId(app, params)
  const client = clientId === undefined || !CLIENT_ID.test(clientId) ? undefined : await findClient(app.db, clientId)
  if (!client || !(JSON.parse(client.post_logout_redirect_uris) as string[]).includes(uri)) return undefined
  const state = params.get('state')
  return state === undefined ? uri : withQuery(uri, [['state', state]])
}

/** Ends the cookie's session (if live); where to send the browser, if anywhere. */
export async function logoutBrowser(
  app: AppContext,
  input: { entries: Iterable<[string, string]>; sessionCookie: string | undefined; meta: RequestMeta },
): Promise<{ location: string | undefined; ended: boolean }> {
  const { values } = collectParams(input.entries)
  const location = await returnAddress(app, values)
  const now = app.clock.now()
  const session = input.sessionCookie === undefined ? undefined : await findBrowserSession(app.db, cookieHash(input.sessionCookie), now)
  if (!session) return { location, ended: false }
  const ended = await app.db.write('oauth.logout', async (tx) => {
    await revokeSession(tx, session.id, 'logout', now)
    const children = await revokeOnlineChildren(tx, session.id, 'logout', now)
    await appendAudit(tx, {
      organizationId: session.organization_id,
      actor: { type: 'user', id: session.user_id, credentialId: session.id },
      event: 'logout',
      target: { type: 'session', id: session.id },
      details: { via: 'authorization_server', ended_token_sessions: children.length },
      request: input.meta,
      now,
    })
    return children
  })
  for (const [sessionId, until] of ended) app.ports.revocations.rememberSession(sessionId, until)
  return { location, ended: true }
}
