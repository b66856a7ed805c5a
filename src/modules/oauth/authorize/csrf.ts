// CSRF tokens of the pages' forms: the browser holds a random cookie, each form a MAC of it keyed from
// the master key. Another site can make a browser send the cookie but can neither read it nor compute
// the MAC, so it cannot forge a form that passes. Compared in constant time.
import { constantTimeEqual, hmacSha256 } from '../../../lib/hmac.ts'

const keys = new WeakMap<Uint8Array, string>()

/** A key for this purpose only, derived from the master key (never the master key itself). */
function csrfKey(masterKey: Uint8Array): string {
  let key = keys.get(masterKey)
  if (key === undefined) {
    key = hmacSha256(masterKey, 'switchboard oauth pages csrf v1', 'base64url')
    keys.set(masterKey, key)
  }
  return key
}

/** The token a form carries for the browser holding `cookieValue`. */
export function csrfToken(masterKey: Uint8Array, cookieValue: string): string {
  return hmacSha256(csrfKey(masterKey), cookieValue, 'base64url')
}

/** True when `token` was made for this browser's cookie. */
export function csrfValid(masterKey: Uint8Array, cookieValue: string | undefined, token: string | undefined): boolean {
  if (cookieValue === undefined || token === undefined) return false
  return constantTimeEqual(csrfToken(masterKey, cookieValue), token)
}
