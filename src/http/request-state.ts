// Per-request facts known before routing (id, start time), kept beside the Request object so that
// error rendering and the access log can reach them on every path, including parse and 404 errors.

export interface RequestState {
  id: string
  startedAt: number
}

const states = new WeakMap<Request, RequestState>()

// Letters, digits and a few punctuation marks common in trace ids; nothing that could break a log line.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/

// Made ids: a random prefix per process and a counter. Unique across restarts, cheaper than a UUID per request.
const ID_PREFIX = Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString('base64url')
let counter = 0

export function newRequestId(): string {
  return `${ID_PREFIX}-${(counter++).toString(36)}`
}

/** Keeps the client's X-Request-Id when it is 1–128 safe characters, otherwise makes one. */
export function beginRequest(request: Request): RequestState {
  const offered = request.headers.get('x-request-id')
  const state = {
    id: offered !== null && SAFE_REQUEST_ID.test(offered) ? offered : newRequestId(),
    startedAt: performance.now(),
  }
  states.set(request, state)
  return state
}

export function requestState(request: Request): RequestState {
  return states.get(request) ?? beginRequest(request)
}

/** The path without the query string (which may carry secrets and never reaches a log). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  return query === -1 ? url.slice(start) : url.slice(start, query)
}
