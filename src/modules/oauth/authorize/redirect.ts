// The answers /oauth2/auth sends back to the client's redirect URI: a code or an RFC 6749 error, always
// with `state` (when sent) and `iss` (RFC 9207), appended to whatever query the URI already has.

/** An RFC 6749 §4.1.2.1 error code (plus the OpenID Connect ones for prompt=none and request objects). */
export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'server_error'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'

/** A validated redirect URI with what every answer to it repeats. */
export interface ReplyTo {
  redirectUri: string
  state: string | undefined
  issuer: string
}

/**
 * RFC 6749 allows only %x20-21 / %x23-5B / %x5D-7E in error_description: no control characters (CR,
 * LF, TAB), no `"` and no `\`. The OpenID conformance suite fails a response that has any.
 */
export function printableDescription(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, ' ').slice(0, 300)
}

/** `uri` with `params` appended: after an existing query with `&`, else after a new `?`. */
export function withQuery(uri: string, params: Array<[string, string]>): string {
  const query = new URLSearchParams(params).toString()
  if (!uri.includes('?')) return `${uri}?${query}`
  return uri.endsWith('?') || uri.endsWith('&') ? `${uri}${query}` : `${uri}&${query}`
}

function tail(to: ReplyTo): Array<[string, string]> {
  return [...(to.state !== undefined ? [['state', to.state] as [string, string]] : []), ['iss', to.issuer]]
}

export function codeRedirect(to: ReplyTo, code: string): string {
  return withQuery(to.redirectUri, [['code', code], ...tail(to)])
}

export function errorRedirect(to: ReplyTo, error: AuthorizeErrorCode, description: string): string {
  return withQuery(to.redirectUri, [['error', error], ['error_description', printableDescription(description)], ...tail(to)])
}
