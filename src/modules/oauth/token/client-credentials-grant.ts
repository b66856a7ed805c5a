// grant_type=client_credentials: a confidential client registered for it gets an access token for
// itself (`sub` is the client id): no session, no refresh token, no ID token. Its scopes are resource
// scopes the client registered (all of them by default; OpenID scopes mean nothing without a user), and
// it acts for the user who registered it (oauth-clients: clientActingUserId), so its permissions are
// that user's current ones within the scopes: never more than the creator holds.
import type { AppContext, RequestMeta } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { type Role, roleGrants } from '../../access/index.ts'
import { checkIp } from '../../organizations/index.ts'
import { type PendingClientTokens, prepareClientCredentials } from '../../auth/index.ts'
import { clientActingUserId, grantsWithinScopes, type OAuthClientRow, RESOURCE_SCOPES } from '../../oauth-clients/index.ts'
import { findOrganization } from '../../organizations/index.ts'
import { findUserInOrg } from '../../users/index.ts'
import { recordIssue, recordRefusal, type Refusal, refusal } from './audit.ts'
import type { Form } from './form.ts'
import { mintClientTokens, type TokenResponseBody } from './issue.ts'

const GRANT = 'client_credentials'

/** The token's scopes: the asked ones, each a resource scope the client registered; by default all of those. */
function grantedScopes(client: OAuthClientRow, asked: string | undefined): string[] | Refusal {
  const registered = (JSON.parse(client.scopes) as string[]).filter((s) => Object.hasOwn(RESOURCE_SCOPES, s))
  if (asked === undefined) {
    if (registered.length > 0) return registered
    return refusal('invalid_scope', 'no_resource_scope', 'The client has no resource scope registered')
  }
  const wanted = [...new Set(asked.split(' ').filter((s) => s !== ''))]
  const refused = wanted.find((s) => !registered.includes(s))
  if (refused === undefined && wanted.length > 0) return wanted
  return refusal(
    'invalid_scope',
    'scope_not_registered',
    `Ask for resource scopes the client registered (${registered.join(' ') || 'none'}); OpenID scopes need a user`,
  )
}

interface Issued {
  ok: true
  pending: PendingClientTokens
  scope: string
}

/** The scopes and the acting user of the request, or why it is refused. */
async function checkRequest(tx: Tx, app: Pick<AppContext, 'allowlists'>, input: Input, now: number) {
  const { client, request } = input
  const scopes = grantedScopes(client, input.form.get('scope'))
  if (!Array.isArray(scopes)) return scopes
  const actingId = await clientActingUserId(tx, client)
  const user = actingId === undefined ? undefined : await findUserInOrg(tx, client.organization_id, actingId)
  const org = await findOrganization(tx, client.organization_id)
  if (user?.status !== 'active' || !org)
    return refusal('unauthorized_client', 'acting_user_inactive', 'The user this client acts for is disabled or gone')
  const who = { organizationId: org.id, actor: { type: 'user' as const, id: user.id, credentialId: client.id } }
  const ipError = await checkIp(tx, app, { ranges: app.allowlists.ranges(org.allowed_ips), who, request, now })
  if (ipError) return refusal('invalid_grant', 'ip_not_allowed', ipError.message, user.id)
  return { user, scopes }
}

interface Input {
  client: OAuthClientRow
  form: Form
  request: RequestMeta
}

export async function issueClientCredentials(app: AppContext, input: Input): Promise<TokenResponseBody> {
  const { client, request } = input
  const now = app.clock.now()
  const where = { client, grantType: GRANT, request, now }
  const outcome = await app.db.write('oauth.token.client_credentials', async (tx): Promise<Issued | Refusal> => {
    const checked = await checkRequest(tx, app, input, now)
    if ('ok' in checked) {
      await recordRefusal(tx, where, checked)
      return checked
    }
    const { user, scopes } = checked
    const scope = scopes.join(' ')
    const permissions = grantsWithinScopes(roleGrants(user.role as Role), scopes)
    const pending = await prepareClientCredentials(tx, app, {
      organizationId: client.organization_id,
      client: { clientId: client.id, scope, permissions },
      now,
    })
    await recordIssue(tx, where, { userId: user.id, credentialId: client.id, scope })
    return { ok: true, pending, scope }
  })
  if (!outcome.ok) throw outcome.error
  return mintClientTokens(app, outcome.pending, outcome.scope, undefined)
}
