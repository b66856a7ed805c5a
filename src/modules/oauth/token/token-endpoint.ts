// POST /oauth2/token: grant_type first, then the client's authentication, its per-client rate limit, and
// whether the client is registered for the grant; then the grant itself. Answers the token response
// (RFC 6749 §5.1) or throws OAuthError (the route answers RFC 6749 §5.2 JSON).
import type { AppContext, RequestMeta } from '../../../context.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { recordRefusal, refusal } from './audit.ts'
import { authenticateClient } from './client-auth.ts'
import { issueClientCredentials } from './client-credentials-grant.ts'
import { chargeClient } from './client-rate.ts'
import { exchangeCode } from './code-grant.ts'
import { type Form, required } from './form.ts'
import { noStoreJson, OAuthError } from './protocol.ts'
import { refreshForClient } from './refresh-grant.ts'

type Grant = (app: AppContext, input: { client: OAuthClientRow; form: Form; request: RequestMeta }) => Promise<unknown>

const GRANTS: Record<string, Grant> = {
  authorization_code: exchangeCode,
  refresh_token: refreshForClient,
  client_credentials: issueClientCredentials,
}

/** The client may use `grantType`: registered for it (client credentials: confidential clients only). */
async function assertRegisteredFor(app: AppContext, client: OAuthClientRow, grantType: string, request: RequestMeta): Promise<void> {
  const registered = (JSON.parse(client.grant_types) as string[]).includes(grantType)
  if (registered && (grantType !== 'client_credentials' || client.client_type === 'confidential')) return
  const refused = refusal('unauthorized_client', 'grant_not_registered', `This client is not registered for ${grantType}`)
  const now = app.clock.now()
  await app.db.write('oauth.token.refused', (tx) => recordRefusal(tx, { client, grantType, request, now }, refused))
  throw refused.error
}

export async function tokenEndpoint(app: AppContext, input: { authorization: string | null; form: Form; request: RequestMeta }) {
  const { form, request } = input
  const grantType = required(form, 'grant_type')
  const client = await authenticateClient(app, { ...input, allowPublic: true })
  const limited = await chargeClient(app, client.id)
  if (limited) return limited
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined
  if (!grant) throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code, refresh_token or client_credentials')
  await assertRegisteredFor(app, client, grantType, request)
  return noStoreJson(200, await grant(app, { client, form, request }))
}
