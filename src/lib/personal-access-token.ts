// The personal access token format: `pat_live_` + 32 random bytes in base62 (43 characters) + a
// 6-character base62 CRC32 of that random part. The checksum lets a typo or a truncated token be
// refused without a database read, and the fixed prefix lets secret scanners find leaked tokens.

export const PAT_PREFIX = 'pat_live_'
const BODY_LENGTH = 43
const CHECKSUM_LENGTH = 6
export const PAT_LENGTH = PAT_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH
/** How much of a token is kept in clear to recognise it in a list: the prefix and 8 characters. */
export const DISPLAY_PREFIX_LENGTH = PAT_PREFIX.length + 8

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SHAPE = new RegExp(`^${PAT_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`)

function base62(value: bigint, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(value % 62n)] + out
    value /= 62n
  }
  return out
}

function checksum(body: string): string {
  return base62(BigInt(Bun.hash.crc32(body)), CHECKSUM_LENGTH)
}

export function newPersonalAccessToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  // 62^43 > 2^256: every 32-byte value fits in 43 characters.
  const body = base62(BigInt(`0x${Buffer.from(bytes).toString('hex')}`), BODY_LENGTH)
  return `${PAT_PREFIX}${body}${checksum(body)}`
}

/** True for anything meant as a personal access token (it then never goes to JWT verification). */
export function looksLikePersonalAccessToken(token: string): boolean {
  return token.startsWith(PAT_PREFIX)
}

/** Prefix, length, alphabet and checksum all hold. */
export function isWellFormedPersonalAccessToken(token: string): boolean {
  if (!SHAPE.test(token)) return false
  const body = token.slice(PAT_PREFIX.length, PAT_PREFIX.length + BODY_LENGTH)
  return token.slice(-CHECKSUM_LENGTH) === checksum(body)
}
