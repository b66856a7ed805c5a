// The one HMAC-SHA256 of the code base (and HMAC-SHA1, for Twilio's signatures), and the constant-time
// comparison of MACs and other secrets.
import { timingSafeEqual } from 'node:crypto'

export type MacEncoding = 'hex' | 'base64' | 'base64url'

/** Bun's native HMAC: the same bytes as node:crypto's createHmac, in half the time. Strings are UTF-8. */
export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array, encoding: MacEncoding): string {
  return new Bun.CryptoHasher('sha256', key).update(data).digest(encoding)
}

/** HMAC-SHA1: only to check a provider's signature that still uses it (Twilio's X-Twilio-Signature). */
export function hmacSha1(key: string | Uint8Array, data: string | Uint8Array, encoding: MacEncoding): string {
  return new Bun.CryptoHasher('sha1', key).update(data).digest(encoding)
}

/** Lowercase hex HMAC-SHA256, the form of the `X-Service-Signature` headers. */
export function hmacSha256Hex(key: string | Uint8Array, data: string | Uint8Array): string {
  return hmacSha256(key, data, 'hex')
}

/**
 * Whether two strings are equal, in time that depends on their length only, never on where they
 * first differ (timingSafeEqual throws on different lengths: a length is not a secret here).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}
