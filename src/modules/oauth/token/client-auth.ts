// Client authentication at the protocol endpoints (RFC 6749 §2.3): HTTP Basic with both parts
// form-url-decoded (`+` is a space, %XX a byte), or client_id and client_secret in the body, or a public
// client's client_id alone (`none`). One method per request. Every failure is `invalid_client` (401),
// never saying whether the client exists; a failure of a registered client is written to its
// organization's audit log.
import type { AppContext, RequestMeta } from '../../../context.ts'
import { appendAudit } from '../../audit/index.ts'
import { clientSecretMatches, findClient, type OAuthClientRow } from '../../oauth-clients/index.ts'
import type { Form } from './form.ts'
import { OAuthError } from './protocol.ts'

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none'

interface Presented {
  clientId: string
  secret: string | undefined
  method: ClientAuthMethod
}

const CLIENT_ID = /^[\x21-\x7e]{1,64}$/

const refused = (text = 'Client authentication failed: unknown client, wrong secret or no secret') => new OAuthError('invalid_client', text)

/** RFC 6749 Appendix B: application/x-www-form-urlencoded decoding of one Basic credential part. */
function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    throw refused('The Basic credentials are not form-url-encoded')
  }
}

function basicCredentials(header: string): { clientId: string; secret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim())
  if (!match) throw refused('Authenticate with HTTP Basic (client_secret_basic) or in the body (client_secret_post)')
  const text = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 0) throw refused('The Basic credentials are not client_id:client_secret')
  return { clientId: formDecode(text.slice(0, colon)), secret: formDecode(text.slice(colon + 1)) }
}

/** Which method the request uses and what it presents; invalid_request for two methods at once. */
function presented(authorization: string | null, form: Form): Presented {
  const bodyId = form.get('client_id')
  const bodySecret = form.get('client_secret')
  if (authorization !== null) {
    if (bodySecret !== undefined)
      throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or the body, not both')
    const basic = basicCredentials(authorization)
    if (bodyId !== undefined && bodyId !== basic.clientId)
      throw new OAuthError('invalid_request', 'client_id in the body differs from the one in HTTP Basic')
    return { ...basic, method: 'client_secret_basic' }
  }
  if (bodyId === undefined) throw refused('Client authentication is required: HTTP Basic, or client_id (and client_secret) in the body')
  return { clientId: bodyId, secret: bodySecret, method: bodySecret === undefined ? 'none' : 'client_secret_post' }
}

/** Why a registered client's attempt failed, or undefined when it succeeded. */
function failure(client: OAuthClientRow, attempt: Presented, allowPublic: boolean): string | undefined {
  if (attempt.method === 'none') {
    if (client.client_type === 'confidential') return 'secret_missing'
    return allowPublic ? undefined : 'public_client_not_allowed'
  }
  if (client.client_type === 'public') return 'public_client_secret'
  return clientSecretMatches(attempt.secret ?? '', client.secret_hash) ? undefined : 'wrong_secret'
}

const MESSAGES: Record<string, string> = {
  secret_missing: 'This client is confidential: authenticate with its secret',
  public_client_not_allowed: 'A public client cannot use this endpoint: it needs a confidential client',
  public_client_secret: 'A public client has no secret: send client_id alone',
}

/**
 * The authenticated client, or `invalid_client`. `allowPublic`: whether a public client's client_id
 * alone is enough here (token and revocation: yes; introspection: no).
 */
export async function authenticateClient(
  app: Pick<AppContext, 'db' | 'clock'>,
  input: { authorization: string | null; form: Form; request: RequestMeta; allowPublic: boolean },
): Promise<OAuthClientRow> {
  const attempt = presented(input.authorization, input.form)
  // Ids are short printable ASCII (ocl_ + 26): anything else is unknown without asking the database.
  const client = CLIENT_ID.test(attempt.clientId) ? await findClient(app.db, attempt.clientId) : undefined
  if (!client) throw refused()
  const reason = failure(client, attempt, input.allowPublic)
  if (reason === undefined) return client
  const now = app.clock.now()
  await app.db.write('client.auth_failed', (tx) =>
    appendAudit(tx, {
      organizationId: client.organization_id,
      actor: { type: 'anonymous', id: null },
      event: 'client.auth_failed',
      outcome: 'failure',
      reason,
      target: { type: 'oauth_client', id: client.id },
      details: { client_id: client.id, method: attempt.method },
      request: input.request,
      now,
    }),
  )
  throw refused(MESSAGES[reason])
}
