// verifyJwt: checks an RS256 JWT against our keys, synchronously, with node:crypto (~20 µs; jose's
// WebCrypto path is async and ~140 µs). Strict in the same order as jose: shape, protected header
// (alg RS256 only, typ JWT, a kid we know, no extensions), signature, and only then the claims.
import { verify, type KeyObject } from 'node:crypto'

const SEGMENT = /^[A-Za-z0-9_-]+$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
// Base64url's last character of a segment of length % 4 == 2 (or 3) carries 4 (or 2) unused bits.
const UNUSED_BITS = [0, -1, 0b1111, 0b11] as const

/**
 * Each of the three segments is canonical base64url: a length a base64url string can have, and the
 * unused trailing bits zero. Without it `…Q` and `…R` decode to the same signature, so one token has
 * many spellings, each missing the verified-token cache and evicting other entries. Cheap (three
 * characters looked at), so it runs before the cache.
 */
export function hasCanonicalSegments(token: string): boolean {
  let start = 0
  for (let i = 0; i < 3; i++) {
    const dot = token.indexOf('.', start)
    const end = i < 2 ? dot : token.length
    if (end < 0 || (i === 2 && dot >= 0)) return false
    const mask = UNUSED_BITS[(end - start) % 4]!
    if (mask < 0 || (mask > 0 && (ALPHABET.indexOf(token[end - 1]!) & mask) !== 0)) return false
    start = end + 1
  }
  return true
}

export type JwtFailure = 'malformed' | 'unknown_key' | 'bad_signature' | 'bad_claims' | 'not_yet_valid' | 'expired'

export interface JwtExpectations {
  issuer: string
  audience: string
  /** Unix seconds. */
  now: number
  required: readonly string[]
}

function decodeObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The verified claims, or why the token is refused. */
export function verifyJwt(
  token: string,
  keyFor: (kid: string) => KeyObject | undefined,
  expect: JwtExpectations,
): Record<string, unknown> | JwtFailure {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p)) || !hasCanonicalSegments(token)) return 'malformed'
  const [head, body, signature] = parts as [string, string, string]
  const header = decodeObject(head)
  if (!header) return 'malformed'
  // Only what we issue: RS256, typ JWT, a key id; no critical or unencoded-payload extensions.
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : undefined
  if (header.alg !== 'RS256' || typ !== 'jwt' || typeof header.kid !== 'string' || 'crit' in header || 'b64' in header) return 'malformed'
  const key = keyFor(header.kid)
  if (!key) return 'unknown_key'
  if (!verify('sha256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'))) return 'bad_signature'

  const claims = decodeObject(body)
  if (!claims) return 'malformed'
  const aud = claims.aud
  const audienceOk = aud === expect.audience || (Array.isArray(aud) && aud.includes(expect.audience))
  const timesOk = ['exp', 'iat', 'nbf'].every((c) => claims[c] === undefined || typeof claims[c] === 'number')
  if (claims.iss !== expect.issuer || !audienceOk || !timesOk || expect.required.some((c) => claims[c] === undefined)) return 'bad_claims'
  if (typeof claims.nbf === 'number' && claims.nbf > expect.now) return 'not_yet_valid'
  if (typeof claims.exp === 'number' && claims.exp <= expect.now) return 'expired'
  return claims
}
