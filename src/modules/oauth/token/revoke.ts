// POST /oauth2/revoke (RFC 7009): a client revokes one of its own tokens. A refresh token ends its whole
// family (the session: every access token of it is refused from then on); an access token is revoked by
// its id until it expires. Another client's token, an unknown or expired one: nothing happens, and the
// answer is the same 200 (RFC 7009 §2.2), so a client learns nothing about tokens not its own.
import type { AppContext, RequestMeta } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit } from '../../audit/index.ts'
import { findRefreshToken, hashToken, insertRevokedToken, revokeSession, tokenHolder } from '../../auth/index.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { type Form, required } from './form.ts'

interface Revoked {
  userId: string
  sessionId: string
  tokenType: 'refresh_token' | 'access_token'
}

function audit(tx: Tx, client: OAuthClientRow, revoked: Revoked, request: RequestMeta, now: number) {
  return appendAudit(tx, {
    organizationId: client.organization_id,
    actor: { type: 'user', id: revoked.userId, credentialId: revoked.sessionId },
    event: 'oauth.token.revoked',
    target: { type: 'oauth_client', id: client.id },
    details: { client_id: client.id, token_type: revoked.tokenType, session_id: revoked.sessionId },
    request,
    now,
  })
}

async function revokeRefreshToken(app: AppContext, client: OAuthClientRow, token: string, request: RequestMeta): Promise<void> {
  const found = await findRefreshToken(app.db, hashToken(token))
  if (!found) return
  const { session } = found
  if (session.kind !== 'oauth' || session.client_id !== client.id) return
  const now = app.clock.now()
  const until = await app.db.write('oauth.token.revoke', async (tx) => {
    const ended = await revokeSession(tx, session.id, 'revoked_by_client', now)
    if (ended !== undefined)
      await audit(tx, client, { userId: session.user_id, sessionId: session.id, tokenType: 'refresh_token' }, request, now)
    return ended
  })
  if (until !== undefined) app.ports.revocations.rememberSession(session.id, until)
}

async function revokeAccessToken(app: AppContext, client: OAuthClientRow, token: string, request: RequestMeta): Promise<void> {
  const holder = await tokenHolder(app, token).catch((error: unknown) => {
    // Invalid, expired or already revoked: nothing left to revoke.
    if (error instanceof AppError) return undefined
    throw error
  })
  const { credential } = holder ?? {}
  if (!holder || !credential || credential.type === 'session' || credential.type === 'api_key' || credential.clientId !== client.id) return
  const now = app.clock.now()
  await app.db.write('oauth.token.revoke', async (tx) => {
    await insertRevokedToken(tx, credential.tokenId, credential.tokenExpiresAt)
    await audit(tx, client, { userId: holder.userId, sessionId: credential.id, tokenType: 'access_token' }, request, now)
  })
  app.ports.revocations.rememberToken(credential.tokenId, credential.tokenExpiresAt)
}

export async function revoke(app: AppContext, input: { client: OAuthClientRow; form: Form; request: RequestMeta }): Promise<void> {
  const token = required(input.form, 'token')
  // Refresh tokens are `rt_…`, access tokens JWTs: the token_type_hint is not needed to tell them apart.
  if (token.startsWith('rt_')) {
    if (token.length <= 128) await revokeRefreshToken(app, input.client, token, input.request)
  } else if (token.length <= 8192) await revokeAccessToken(app, input.client, token, input.request)
}
