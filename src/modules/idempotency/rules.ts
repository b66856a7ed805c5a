// The idempotency rules (Stripe's, https://docs.stripe.com/idempotency): what a key may be, how long an
// answer is kept, when a claim counts as abandoned, and what makes two requests "the same request".
import { hmacSha256 } from '../../lib/hmac.ts'

/** An answer is replayed for 24 hours; after that the key works anew and the cron task deletes it. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000

/**
 * A claim still `in_progress` after this long is taken to be abandoned (its process crashed between the
 * claim and the saved answer) and the next request with the key may take it over. No request of the API
 * runs anywhere near this long: a live request is never taken over, a dead one blocks its key a minute.
 */
export const ABANDONED_AFTER_MS = 60 * 1000

/** 1–255 printable ASCII characters (space to tilde): a UUID, a ULID, or any string the client chose. */
const WELL_FORMED_KEY = /^[\x20-\x7e]{1,255}$/

export function isWellFormedKey(key: string): boolean {
  return WELL_FORMED_KEY.test(key)
}

// Keyed: a body can hold a password or a webhook secret, and a plain SHA-256 of it in the database would
// let whoever reads the table test guesses at full speed for a day. One key per master key, derived once.
const hashKeys = new WeakMap<Uint8Array, string>()

function hashKey(masterKey: Uint8Array): string {
  const known = hashKeys.get(masterKey)
  if (known !== undefined) return known
  const key = hmacSha256(masterKey, 'switchboard idempotency request hash v1', 'base64url')
  hashKeys.set(masterKey, key)
  return key
}

/**
 * HMAC-SHA256 (hex) of the method, the path with its query and the body's exact text — what makes a retry
 * "the same request": a client retries by sending the same bytes again.
 */
export function requestHash(masterKey: Uint8Array, request: { method: string; pathWithQuery: string; body: string }): string {
  return hmacSha256(hashKey(masterKey), `${request.method}\n${request.pathWithQuery}\n${request.body}`, 'hex')
}
