// Validates an authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1, RFC 7636). The
// client and the redirect URI come first: until both are known good nothing may be sent to the URI, so
// a bad one is an error page of ours. Every later problem goes back to the client's redirect URI.
// The pages' forms carry the request along and every POST checks it again, exactly like the first time.
import type { Queries } from '../../../db/database.ts'
import { ALL_SCOPES, findClient, type OAuthClientRow, redirectUriMatches } from '../../oauth-clients/index.ts'
import type { AuthorizeErrorCode, ReplyTo } from './redirect.ts'

/** The parameters the pages' forms carry from step to step (the others served the first request only). */
export const CARRIED_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
] as const

export interface AuthorizationRequest {
  client: OAuthClientRow
  reply: ReplyTo
  /** Granted if consented: registered for the client, duplicates folded, in ALL_SCOPES order. */
  scopes: string[]
  codeChallenge: string | null
  nonce: string | null
  prompt: { none: boolean; login: boolean; consent: boolean }
  /** Seconds; null when not asked. */
  maxAgeS: number | null
  /** An e-mail address to fill in on the sign-in page. */
  loginHint: string
  /** What the forms carry, as received. */
  carried: Array<[string, string]>
}

export type CheckedRequest =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; page: string }
  | { ok: false; page?: undefined; client: OAuthClientRow; reply: ReplyTo; error: AuthorizeErrorCode; description: string }

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/
// Printable ASCII: a nonce is stored with the code and repeated in the ID token (and PostgreSQL text cannot hold NUL).
const NONCE = /^[\x20-\x7E]{1,512}$/
/** The shape of our client ids: anything else is no client, without asking the database. */
export const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/

function jsonList(text: string): string[] {
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** Parameters sent without a value count as omitted (RFC 6749 §3.1); each name once, or it is listed in `repeated`. */
export function collectParams(entries: Iterable<[string, string]>): { values: Map<string, string>; repeated: Set<string> } {
  const values = new Map<string, string>()
  const repeated = new Set<string>()
  for (const [name, value] of entries) {
    if (value === '') continue
    if (values.has(name)) repeated.add(name)
    values.set(name, value)
  }
  return { values, repeated }
}

export async function checkAuthorizationRequest(db: Queries, issuer: string, entries: Iterable<[string, string]>): Promise<CheckedRequest> {
  const { values, repeated } = collectParams(entries)
  const clientId = values.get('client_id')
  const redirectUri = values.get('redirect_uri')
  if (clientId === undefined) return { ok: false, page: 'The request names no application (client_id is missing).' }
  if (repeated.has('client_id') || repeated.has('redirect_uri'))
    return { ok: false, page: 'The request names its application or its return address more than once.' }
  const client = CLIENT_ID.test(clientId) ? await findClient(db, clientId) : undefined
  if (!client) return { ok: false, page: 'The application that sent you here is not registered (unknown client_id).' }
  if (redirectUri === undefined) return { ok: false, page: 'The request has no return address (redirect_uri is missing).' }
  if (!jsonList(client.redirect_uris).some((registered) => redirectUriMatches(registered, redirectUri)))
    return { ok: false, page: 'The return address (redirect_uri) is not one registered for this application.' }

  const reply: ReplyTo = { redirectUri, state: values.get('state'), issuer }
  const refuse = (error: AuthorizeErrorCode, description: string): CheckedRequest => ({ ok: false, client, reply, error, description })
  if (repeated.size > 0) return refuse('invalid_request', `Parameters sent more than once: ${[...repeated].sort().join(', ')}`)
  if (values.has('request')) return refuse('request_not_supported', 'Request objects (request) are not supported')
  if (values.has('request_uri')) return refuse('request_uri_not_supported', 'request_uri is not supported')
  const responseType = values.get('response_type')
  if (responseType === undefined) return refuse('invalid_request', 'response_type is required')
  if (responseType !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported')
  const responseMode = values.get('response_mode')
  if (responseMode !== undefined && responseMode !== 'query') return refuse('invalid_request', 'Only response_mode=query is supported')
  if (!jsonList(client.grant_types).includes('authorization_code'))
    return refuse('unauthorized_client', 'This client may not use the authorization code grant')

  const asked = new Set((values.get('scope') ?? '').split(' ').filter((s) => s !== ''))
  if (asked.size === 0) return refuse('invalid_scope', 'scope is required')
  const registered = new Set(jsonList(client.scopes))
  const unknown = [...asked].filter((s) => !registered.has(s))
  if (unknown.length > 0) return refuse('invalid_scope', `Scopes not registered for this client: ${unknown.join(' ')}`)
  const scopes = ALL_SCOPES.filter((s) => asked.has(s))

  const challenge = values.get('code_challenge') ?? null
  const method = values.get('code_challenge_method')
  if (challenge === null && method !== undefined) return refuse('invalid_request', 'code_challenge_method was sent without code_challenge')
  if (challenge !== null && method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256')
  if (challenge !== null && !CODE_CHALLENGE.test(challenge))
    return refuse('invalid_request', 'code_challenge must be 43 to 128 base64url characters')
  if (challenge === null && client.client_type === 'public')
    return refuse('invalid_request', 'A public client must send code_challenge (PKCE, S256)')

  const nonce = values.get('nonce') ?? null
  if (nonce !== null && !NONCE.test(nonce)) return refuse('invalid_request', 'nonce must be at most 512 printable ASCII characters')
  const maxAge = values.get('max_age')
  if (maxAge !== undefined && !/^\d{1,10}$/.test(maxAge)) return refuse('invalid_request', 'max_age must be a non-negative integer')
  // Unknown prompt values (select_account, create, ...) are ignored: there is one account and no sign-up here.
  const prompts = new Set((values.get('prompt') ?? '').split(' ').filter((p) => p !== ''))
  if (prompts.has('none') && (prompts.has('login') || prompts.has('consent') || prompts.has('select_account')))
    return refuse('invalid_request', 'prompt=none cannot be combined with another prompt')

  const carried = CARRIED_PARAMS.flatMap((name): Array<[string, string]> => {
    const value = values.get(name)
    return value === undefined ? [] : [[name, value]]
  })
  const request: AuthorizationRequest = {
    client,
    reply,
    scopes,
    codeChallenge: challenge,
    nonce,
    prompt: { none: prompts.has('none'), login: prompts.has('login'), consent: prompts.has('consent') },
    maxAgeS: maxAge === undefined ? null : Number(maxAge),
    loginHint: (values.get('login_hint') ?? '').replace(/\p{Cc}/gu, '').slice(0, 254),
    carried,
  }
  return { ok: true, request }
}
