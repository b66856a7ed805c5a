// POST /oauth2/introspect (RFC 7662), for an authenticated confidential client: whether a token is
// active, and what it is. An access token is checked exactly as the API checks it (signature, expiry,
// revocation, its user and client as they are now) and must be of the client's organization; a refresh
// token must be one of this client's own live families. Anything else is `{active: false}`, never why.
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { findRefreshToken, hashToken, tokenHolder } from '../../auth/index.ts'
import { findUserInOrg } from '../../users/index.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { type Form, required } from './form.ts'

const INACTIVE = { active: false } as const

function payloadOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>
}

async function accessTokenInfo(app: AppContext, client: OAuthClientRow, token: string) {
  try {
    const holder = await tokenHolder(app, token)
    if (holder.organizationId !== client.organization_id) return INACTIVE
    // Verified by tokenHolder: the payload is ours.
    const p = payloadOf(token)
    const info: Record<string, unknown> = { active: true }
    if (typeof p.scope === 'string') info.scope = p.scope
    if (typeof p.client_id === 'string') info.client_id = p.client_id
    Object.assign(info, {
      token_type: 'Bearer',
      exp: p.exp,
      iat: p.iat,
      nbf: p.nbf,
      sub: p.sub,
      aud: p.aud,
      iss: p.iss,
      jti: p.jti,
      sid: p.sid,
    })
    return info
  } catch (error) {
    if (error instanceof AppError) return INACTIVE
    throw error
  }
}

async function refreshTokenInfo(app: AppContext, client: OAuthClientRow, token: string) {
  const found = await findRefreshToken(app.db, hashToken(token))
  const now = app.clock.now()
  if (!found) return undefined
  const { token: row, session } = found
  if (session.kind !== 'oauth' || session.client_id !== client.id || session.revoked_at !== null) return INACTIVE
  if (row.consumed_at !== null || Number(row.expires_at) <= now) return INACTIVE
  const user = await findUserInOrg(app.db, session.organization_id, session.user_id)
  if (user?.status !== 'active') return INACTIVE
  return {
    active: true,
    scope: session.scope ?? '',
    client_id: client.id,
    sub: user.id,
    iss: app.config.authUrl,
    exp: Math.floor(Number(row.expires_at) / 1000),
    iat: Math.floor(Number(row.created_at) / 1000),
    sid: session.id,
  }
}

export async function introspect(app: AppContext, input: { client: OAuthClientRow; form: Form }): Promise<Record<string, unknown>> {
  const token = required(input.form, 'token')
  // Our refresh tokens are `rt_…`, never a JWT: the hint is not needed to tell them apart.
  if (token.startsWith('rt_') && token.length <= 128) return (await refreshTokenInfo(app, input.client, token)) ?? INACTIVE
  if (token.length > 8192) return INACTIVE
  return accessTokenInfo(app, input.client, token)
}
