// Idempotency-Key on the API's POSTs, the HTTP side (the rules are src/modules/idempotency): which routes
// take a key, checking the header, claiming the key once the request is authenticated, rate-counted and
// authorized (the auth macros' beforeHandle, the last step before the handler), replaying a saved answer,
// and keeping the answer (platform.ts's mapResponse, which sees every response once, with its status).
// The idempotency module is reached through `app.guards` (src/request-guards.ts): this file imports no module.
import type { AppContext, SystemActor, UserActor } from '../context.ts'
import { validationError } from '../errors.ts'
import type { ClaimRef, StoredAnswer } from '../ports.ts'
import { idempotentBodyText, isStreamedRequest } from './body.ts'
import { requestState } from './request-state.ts'

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
export const REPLAYED_HEADER = 'Idempotent-Replayed'

/**
 * Authenticated POSTs that take no key: their answer holds a secret shown once (a personal access token,
 * an OAuth client's secret), which must not be kept anywhere, even for 24 hours. /api/v1/auth/* takes none
 * either: sign-in steps (no user yet), and session and MFA changes whose answers hold tokens, TOTP secrets
 * or recovery codes.
 */
const ROUTES_WITHOUT_KEYS: ReadonlySet<string> = new Set([
  '/api/v1/api-keys',
  '/api/v1/oauth-clients',
  '/api/v1/oauth-clients/:id/rotate-secret',
  // A survey's public link: a bearer secret of which only the hash is kept.
  '/api/v1/surveys',
  '/api/v1/surveys/:id/link',
])

/** Whether an authenticated route takes an Idempotency-Key (elsewhere the header is ignored, as Stripe's GETs ignore it). */
export function takesIdempotencyKey(method: string, route: string): boolean {
  return method === 'POST' && route.startsWith('/api/v1/') && !route.startsWith('/api/v1/auth/') && !ROUTES_WITHOUT_KEYS.has(route)
}

const CLAIM = Symbol('idempotency claim')

/** What a claim reads of a request; `actor` is set by the auth macro's resolve, which ran just before. */
type HookContext = { request: Request; route: string; actor?: UserActor | SystemActor }

/**
 * The auth macros' beforeHandle: claims the request's key, or answers from it (a replay, or a 409 thrown).
 * A request refused before this point (400 by its schema, 401, 403, 429) never touches its key. A route
 * that streams its body (body.ts's StreamedBody) claims later, itself, with claimKeyForStreamedBody.
 */
export function claimIdempotencyKey(app: AppContext, c: HookContext): Promise<Response | undefined> | undefined {
  if (isStreamedRequest(c.request)) return
  // No text when the route reads no body (Elysia then parses none): a body it ignores cannot change its answer.
  return claimKey(app, c, () => idempotentBodyText(c.request) ?? '')
}

/**
 * For a route that streams its body, once it has read it whole: claims the key bound to the body's
 * SHA-256 (`digest`, hex), or answers from it. Undefined when the request names no key.
 */
export function claimKeyForStreamedBody(app: AppContext, c: object, digest: string): Promise<Response | undefined> | undefined {
  return claimKey(app, c as HookContext, () => `sha256:${digest}`)
}

function claimKey(app: AppContext, c: HookContext, bodyText: () => string): Promise<Response | undefined> | undefined {
  const { request } = c
  if (!takesIdempotencyKey(request.method, c.route)) return
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER)
  if (key === null) return
  if (!app.guards.idempotency.isWellFormedKey(key))
    throw validationError(
      [{ field: IDEMPOTENCY_KEY_HEADER, message: 'Must be 1 to 255 printable ASCII characters' }],
      'The Idempotency-Key header is invalid',
    )
  const actor = c.actor as UserActor | SystemActor
  // A user's keys are theirs; an operator's (an operator token, above every organization) the token's.
  const owner =
    actor.kind === 'user'
      ? { scope: actor.userId, organizationId: actor.organizationId }
      : { scope: `${actor.id}:${actor.credentialId ?? actor.id}`, organizationId: null }
  const url = request.url
  const pathWithQuery = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  return (async () => {
    const begun = await app.guards.idempotency.begin(app, {
      ...owner,
      key,
      requestHash: app.guards.idempotency.requestHash(app.masterKey, { method: request.method, pathWithQuery, body: bodyText() }),
    })
    if (begun.kind === 'replay') return responseOf(begun.answer, { [REPLAYED_HEADER]: 'true' })
    ;(request as unknown as Record<symbol, ClaimRef>)[CLAIM] = begun.claim
    return undefined
  })()
}

/**
 * For platform.ts's mapResponse: a request that claimed a key keeps its answer (a 5xx frees the key instead,
 * so that a retry runs anew) before the answer leaves, and answers with exactly what a replay will send.
 * Undefined, at no cost, for every other request.
 */
export function keepIdempotentAnswer(
  app: Pick<AppContext, 'db' | 'log' | 'guards'>,
  c: { request: Request; set: { headers: Record<string, unknown> } },
  status: number,
  value: unknown,
): Promise<unknown> | undefined {
  const slot = c.request as unknown as Record<symbol, ClaimRef | undefined>
  const claim = slot[CLAIM]
  if (!claim) return undefined
  slot[CLAIM] = undefined
  return (async () => {
    // A failure on our side is not kept: the key is freed instead.
    const answer = status >= 500 ? undefined : await answerOf(status, value, c.set.headers)
    try {
      await app.guards.idempotency.finish(app, { claim, answer })
    } catch (error) {
      // The answer still goes out; the key stays claimed until it counts as abandoned (ABANDONED_AFTER_MS).
      app.log.error('idempotency key: the answer could not be kept', { request_id: requestState(c).id, error })
    }
    return answer ? responseOf(answer) : value
  })()
}

/** The headers a replay repeats: what the body is and where a created resource lives. */
const KEPT_HEADERS = ['content-type', 'location']

async function answerOf(status: number, value: unknown, headers: Record<string, unknown>): Promise<StoredAnswer> {
  const kept: Record<string, string> = {}
  for (const [name, header] of Object.entries(headers))
    if (KEPT_HEADERS.includes(name.toLowerCase()) && typeof header === 'string') kept[name.toLowerCase()] = header
  if (value instanceof Response) {
    for (const name of KEPT_HEADERS) {
      const header = value.headers.get(name)
      if (header !== null) kept[name] = header
    }
    return { status, headers: kept, body: await value.clone().text() }
  }
  if (value === undefined || value === null) return { status, headers: kept, body: '' }
  if (typeof value === 'string') return { status, headers: { 'content-type': 'text/plain;charset=utf-8', ...kept }, body: value }
  // What Bun would write for a JSON body.
  return { status, headers: { 'content-type': 'application/json;charset=utf-8', ...kept }, body: JSON.stringify(value) }
}

function responseOf(answer: StoredAnswer, extra: Record<string, string> = {}): Response {
  const empty = answer.status === 204 || answer.status === 304 || answer.body === ''
  return new Response(empty ? null : answer.body, { status: answer.status, headers: { ...answer.headers, ...extra } })
}
