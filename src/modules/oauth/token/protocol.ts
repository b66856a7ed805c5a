// The protocol endpoints' answers: RFC 6749 §5.2 errors and JSON bodies that are never cached, as
// Response objects (the platform's error renderer would give them our own error shape instead).
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type'

/** Thrown by the protocol verbs; the routes answer it as RFC 6749 JSON. */
export class OAuthError extends Error {
  readonly status: number
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description)
    this.name = 'OAuthError'
    this.status = error === 'invalid_client' ? 401 : 400
  }
}

/** The Basic challenge an `invalid_client` answer carries (RFC 6749 §5.2). */
export const CLIENT_CHALLENGE = 'Basic realm="switchboard"'

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

/** RFC 6749 §5.2: error_description is printable ASCII without `"` or `\`. */
export function asciiDescription(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?')
}

/** A JSON answer with Cache-Control: no-store and Pragma: no-cache (tokens and what they reveal). */
export function noStoreJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...NO_STORE, ...headers } })
}

export function oauthErrorResponse(error: OAuthError): Response {
  const body = { error: error.error, error_description: asciiDescription(error.description) }
  return noStoreJson(error.status, body, error.status === 401 ? { 'www-authenticate': CLIENT_CHALLENGE } : {})
}

/** An empty 200 (revocation) that is not cached either. */
export function noStoreEmpty(): Response {
  return new Response(null, { status: 200, headers: NO_STORE })
}
