// The hash under which a bearer secret (refresh token, personal access token, client secret) is stored:
// SHA-256 hex, enough for random secrets of 256 bits (no salt or stretching needed, unlike passwords).

export function hashToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}
