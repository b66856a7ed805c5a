// Request bodies: refuse oversized ones (413) and ones of a type we do not read (415) before reading
// them, and read the rest with a cap (a chunked body has no Content-Length to check up front).
// Every body a route can see goes through readBodyText, or cappedChunks for the routes that stream
// theirs (StreamedBody: an import, an upload, a recording's audio), so none is ever held whole beyond its cap.
import { AppError } from '../errors.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/json-depth.ts'

const URLENCODED = 'application/x-www-form-urlencoded'

export function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`)
}

export function unsupportedMediaType(expected = 'as JSON with Content-Type: application/json'): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body ${expected}`)
}

/**
 * A route that reads its body itself, as a stream (a CSV import, an upload, a recording's audio): its media
 * types and its own cap instead of MAX_BODY_BYTES. parseBody leaves such a body unread; the route reads it
 * with cappedChunks.
 */
export interface StreamedBody {
  method: string
  /**
   * The path, without a query: exact (`/api/v1/contacts/import`), or with `:param` segments that each match
   * one non-empty segment (`/api/v1/calls/:id/recordings`).
   */
  path: string
  /**
   * The media types it streams, each exact (`text/csv`) or a whole type (`audio/*`); 'any' for a route that
   * takes a body of any type (an upload's raw file).
   */
  mediaTypes: readonly string[] | 'any'
  /**
   * The route takes a JSON body too (a recording: `{upload_id}`, or the audio itself). A JSON body, or none,
   * is then not streamed: parseBody reads it with MAX_BODY_BYTES and the route validates it as any other;
   * only the types of mediaTypes stream. Any other type is 415 naming both.
   */
  alsoJson?: boolean
  maxBytes: number
}

// The requests of streamed routes, marked before routing: their Idempotency-Key is claimed by the route,
// once it has read the body (http/idempotency.ts).
const streamedRequests = new WeakSet<Request>()

export function isStreamedRequest(request: Request): boolean {
  return streamedRequests.has(request)
}

/** The streamed routes of one app, sorted once: exact paths compared whole, the others segment by segment. */
interface StreamedRoutes {
  exact: readonly StreamedBody[]
  /**
   * Each pattern's literal start, up to its first `:param` (most paths fail there, at one comparison), and
   * its segments after the leading slash, null for a `:param`.
   */
  patterns: readonly { body: StreamedBody; start: string; segments: readonly (string | null)[] }[]
}

// Keyed by the app's list (platform.ts passes the same one to every request).
const sortedRoutes = new WeakMap<readonly StreamedBody[], StreamedRoutes>()

function sortRoutes(streamed: readonly StreamedBody[]): StreamedRoutes {
  let sorted = sortedRoutes.get(streamed)
  if (sorted) return sorted
  const isPattern = (s: StreamedBody) => s.path.includes('/:')
  sorted = {
    exact: streamed.filter((s) => !isPattern(s)),
    patterns: streamed.filter(isPattern).map((body) => ({
      body,
      start: body.path.slice(0, body.path.indexOf('/:') + 1),
      segments: body.path
        .slice(1)
        .split('/')
        .map((part) => (part.startsWith(':') ? null : part)),
    })),
  }
  sortedRoutes.set(streamed, sorted)
  return sorted
}

/** Whether `path` has exactly the pattern's segments (any non-empty one for a `:param`), without splitting it. */
function matchesSegments(path: string, segments: readonly (string | null)[]): boolean {
  let at = 1
  for (let i = 0; i < segments.length; i++) {
    const slash = path.indexOf('/', at)
    const last = i === segments.length - 1
    // The last segment ends the path; every other ends at a slash.
    if (last !== (slash === -1)) return false
    const end = last ? path.length : slash
    const literal = segments[i] as string | null
    if (literal === null ? end === at : end - at !== literal.length || !path.startsWith(literal, at)) return false
    at = end + 1
  }
  return true
}

function streamedBodyOf(request: Request, streamed: readonly StreamedBody[]): StreamedBody | undefined {
  if (streamed.length === 0) return undefined
  const url = request.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const query = url.indexOf('?', start)
  const path = query === -1 ? url.slice(start) : url.slice(start, query)
  const { method } = request
  const { exact, patterns } = sortRoutes(streamed)
  for (const s of exact) if (s.method === method && s.path === path) return s
  for (const p of patterns) if (p.body.method === method && path.startsWith(p.start) && matchesSegments(path, p.segments)) return p.body
  return undefined
}

/** Whether a streamed route reads a body of this media type (`audio/*` takes `audio/mpeg`). */
function streams(own: StreamedBody, type: string): boolean {
  if (own.mediaTypes === 'any') return true
  for (const accepted of own.mediaTypes) {
    if (accepted === type) return true
    if (accepted.endsWith('/*') && type.length >= accepted.length && type.startsWith(accepted.slice(0, -1))) return true
  }
  return false
}

function unstreamable(own: StreamedBody): AppError {
  const types = own.mediaTypes === 'any' ? [] : own.mediaTypes
  if (own.alsoJson) return unsupportedMediaType(`as JSON with Content-Type: application/json, or with Content-Type: ${types.join(' or ')}`)
  return unsupportedMediaType(`with Content-Type: ${types[0]}`)
}

/**
 * Runs before routing and authentication: 413 when the declared Content-Length exceeds the limit,
 * 415 when a body of a type parseBody does not read (multipart, octet-stream, none named, ...) is
 * coming. Either way nothing of the body has been read. A streamed route (StreamedBody) has its own
 * types and cap; one that also takes JSON has MAX_BODY_BYTES and parseBody for a JSON body (or none).
 */
export function checkBodyUpFront(request: Request, limit: number, streamed: readonly StreamedBody[] = []): void {
  if (request.method === 'GET' || request.method === 'HEAD') return
  const declared = request.headers.get('content-length')
  const hasBody = carriesBody(request)
  let own = streamedBodyOf(request, streamed)
  if (own?.alsoJson && (!hasBody || isJson(mediaType(request.headers.get('content-type'))))) own = undefined
  if (own) streamedRequests.add(request)
  const cap = own?.maxBytes ?? limit
  if (declared !== null && Number(declared) > cap) throw tooLarge(cap)
  if (!hasBody) return
  const type = mediaType(request.headers.get('content-type'))
  if (own && !streams(own, type)) throw unstreamable(own)
  if (!own && !isReadable(type)) throw unsupportedMediaType()
}

/** A body is coming: a Content-Length over 0, or a chunked one (a chunked body may still turn out empty). */
function carriesBody(request: Request): boolean {
  const declared = request.headers.get('content-length')
  return declared !== null ? Number(declared) > 0 : request.body !== null
}

/**
 * For a route that declares a body schema (its body is JSON): 415 for a body of another type parseBody
 * reads (a form, plain text), before it is read. Validated, a form would be refused field by field as
 * mistyped ("Expected string"), or taken when its fields happened to fit. An empty body is left to the
 * route's schema (an optional body may be left out); a streamed request (a route that also takes JSON,
 * given its other type) was checked up front.
 */
export function refuseUnlessJson(request: Request, contentType: string): void {
  if (streamedRequests.has(request) || isJson(mediaType(contentType)) || !carriesBody(request)) return
  throw unsupportedMediaType()
}

/** The body of a streamed route (StreamedBody), chunk by chunk, failing with 413 once more than `limit` bytes have come. */
export async function* cappedChunks(request: Request, limit: number): AsyncGenerator<Uint8Array> {
  if (!request.body) return
  let size = 0
  for await (const chunk of request.body) {
    size += chunk.byteLength
    if (size > limit) throw tooLarge(limit)
    yield chunk
  }
}

/** Reads the body as text, failing with 413 as soon as more than `limit` bytes have arrived. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  if (!request.body) return ''
  // With a Content-Length (already checked) the native reader is fastest.
  if (request.headers.has('content-length')) return request.text()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

export function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json')
}

/** The media types parseBody reads; checkBodyUpFront refuses a body of any other before it is read. */
export function isReadable(type: string): boolean {
  return isJson(type) || type === URLENCODED || type === 'text/plain'
}

// The bodies as sent, of the requests that carry an Idempotency-Key: the key is bound to the body's exact
// text (http/idempotency.ts). Kept for those requests only, so no other pays for it.
const idempotentBodies = new WeakMap<Request, string>()

/** The body's text as read, for a request that carries an Idempotency-Key; undefined when none was read. */
export function idempotentBodyText(request: Request): string | undefined {
  return idempotentBodies.get(request)
}

function keepForIdempotency(request: Request, text: string): void {
  if (request.headers.has('idempotency-key')) idempotentBodies.set(request, text)
}

// The url-encoded bodies as sent: the OAuth endpoints refuse a parameter sent twice (RFC 6749 §3.2),
// which the plain object a route sees cannot show.
const forms = new WeakMap<Request, URLSearchParams>()

/** The parameters of a url-encoded request body, every occurrence kept; undefined for any other body. */
export function formParameters(request: Request): URLSearchParams | undefined {
  return forms.get(request)
}

/** A JSON body nested past MAX_JSON_DEPTH: refused before it is parsed, so it never reaches a validator. */
export function nestedTooDeep(): AppError {
  return new AppError('VALIDATION_FAILED', `The request body nests deeper than ${MAX_JSON_DEPTH} levels`, {
    errors: [{ field: 'body', message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} deep` }],
  })
}

export function nulCharacter(): AppError {
  return new AppError('VALIDATION_FAILED', 'Text must not contain the NUL character (U+0000)')
}

/** True when a string anywhere in `value` holds a NUL: no field of ours may, and PostgreSQL text cannot. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0')
  if (Array.isArray(value)) return value.some(holdsNul)
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\0') || holdsNul(v))
  return false
}

/**
 * The authorization server's protocol endpoints answer bad text in their protocols' words (RFC 6749
 * JSON errors, an HTML page) and check it themselves (src/modules/oauth).
 */
function checksOwnText(request: Request): boolean {
  const path = request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2))
  return path.startsWith('/oauth2/') || path.startsWith('/userinfo')
}

/**
 * Refused before routing, on both engines alike: a NUL in the URL (`%00`) — no id, filter or parameter of
 * ours holds one, and PostgreSQL would fail on it instead of finding nothing.
 */
export function checkUrlUpFront(request: Request): void {
  if (request.url.includes('%00') && !checksOwnText(request)) throw nulCharacter()
}

/**
 * Parses JSON, url-encoded and plain-text bodies, each read with the cap. Any other body was refused
 * up front; null (Elysia's "no body") keeps the framework from reading one whole itself.
 */
export async function parseBody(request: Request, contentType: string, limit: number): Promise<unknown> {
  // A streamed route reads its own body (of any type, for an upload): never read it here. (A JSON body
  // of a route that also takes JSON was not marked: it is read below, as any route's.)
  if (streamedRequests.has(request)) return null
  const type = mediaType(contentType)
  if (isJson(type)) {
    const text = await readBodyText(request, limit)
    keepForIdempotency(request, text)
    // null tells Elysia "no body" (undefined would make it parse again).
    if (text.trim() === '') return null
    if (nestsDeeperThan(text)) throw nestedTooDeep()
    const value: unknown = JSON.parse(text)
    // JSON can only spell a NUL as an escape: most bodies skip the walk.
    if (text.includes('u0000') && holdsNul(value)) throw nulCharacter()
    return value
  }
  if (type === URLENCODED) {
    const text = await readBodyText(request, limit)
    keepForIdempotency(request, text)
    const params = new URLSearchParams(text)
    const fields = Object.fromEntries(params)
    if (holdsNul(fields) && !checksOwnText(request)) throw nulCharacter()
    forms.set(request, params)
    return fields
  }
  if (type === 'text/plain') {
    const text = await readBodyText(request, limit)
    keepForIdempotency(request, text)
    if (text.includes('\0')) throw nulCharacter()
    return text
  }
  return null
}
