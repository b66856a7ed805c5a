// Client secrets: 32 random bytes (base64url, behind a recognisable prefix), kept as SHA-256 like personal access tokens, compared in constant time.
import { constantTimeEqual } from '../../lib/hmac.ts'
import { hashToken } from '../../lib/token-hash.ts'

export const CLIENT_SECRET_PREFIX = 'ocs_'

export function newClientSecret(): string {
  return CLIENT_SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

export function hashClientSecret(secret: string): string {
  return hashToken(secret)
}

/** The last 4 characters: enough to tell two secrets apart, nothing to guess from. */
export function secretHint(secret: string): string {
  return secret.slice(-4)
}

/** True when `secret` is the one whose hash is stored; false for a public client (no hash). */
export function clientSecretMatches(secret: string, storedHash: string | null): boolean {
  if (storedHash === null) return false
  return constantTimeEqual(hashClientSecret(secret), storedHash)
}
