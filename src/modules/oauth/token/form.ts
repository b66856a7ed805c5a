// The parameters of a protocol request (RFC 6749 §3.2, RFC 7009, RFC 7662): a url-encoded body only,
// each parameter at most once and without control characters; one sent empty counts as not sent (RFC 6749 §3.1).
import { OAuthError } from './protocol.ts'

export type Form = ReadonlyMap<string, string>

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\x00-\x1f\x7f]/

/**
 * The body's parameters. `mediaType`: the Content-Type without its parameters; `params`: the body as
 * sent, every occurrence kept (undefined when it was not url-encoded).
 */
export function protocolForm(mediaType: string, params: URLSearchParams | undefined): Form {
  if (mediaType !== 'application/x-www-form-urlencoded' || params === undefined)
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded')
  const form = new Map<string, string>()
  const seen = new Set<string>()
  for (const [name, value] of params) {
    if (seen.has(name)) throw new OAuthError('invalid_request', `The parameter ${name.slice(0, 40)} is sent more than once`)
    seen.add(name)
    // No protocol value holds one (and PostgreSQL text cannot hold NUL).
    if (CONTROL.test(value)) throw new OAuthError('invalid_request', `The parameter ${name.slice(0, 40)} holds control characters`)
    if (value !== '') form.set(name, value)
  }
  return form
}

/** A parameter the request must have, or invalid_request naming it. */
export function required(form: Form, name: string): string {
  const value = form.get(name)
  if (value === undefined) throw new OAuthError('invalid_request', `The parameter ${name} is missing`)
  return value
}
