// Per-request facts known before routing (id, start time), kept on the request itself, which onRequest,
// every route hook, onError and mapResponse receive, on every path (404s and parse errors too). On the
// Request rather than on Elysia's context: a hook that hands its whole context to a function makes
// Elysia prepare everything for every route (headers copied, cookies parsed), so hooks pass `{ request }`.

export interface RequestState {
  id: string
  startedAt: number
}

const STATE = Symbol('request state')

/** Elysia's per-request context, as far as this file is concerned. */
export type RequestContext = { request: Request }

// Letters, digits and a few punctuation marks common in trace ids; nothing that could break a log line.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/

// Made ids: a random prefix per process and a counter. Unique across restarts, cheaper than a UUID per request.
const ID_PREFIX = Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString('base64url')
let counter = 0

export function newRequestId(): string {
  return `${ID_PREFIX}-${(counter++).toString(36)}`
}

/** Keeps the client's X-Request-Id when it is 1–128 safe characters, otherwise makes one. */
export function beginRequest(ctx: RequestContext): RequestState {
  const offered = ctx.request.headers.get('x-request-id')
  const state = {
    id: offered !== null && SAFE_REQUEST_ID.test(offered) ? offered : newRequestId(),
    startedAt: performance.now(),
  }
  // A property rather than a WeakMap entry: no ephemeron for the collector per request.
  ;(ctx.request as unknown as Record<symbol, RequestState>)[STATE] = state
  return state
}

export function requestState(ctx: RequestContext): RequestState {
  return (ctx.request as unknown as Record<symbol, RequestState | undefined>)[STATE] ?? beginRequest(ctx)
}

/** The path without the query string (which may carry secrets and never reaches a log). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  return query === -1 ? url.slice(start) : url.slice(start, query)
}
