// The ID token (OpenID Connect Core §2): RS256 with the key that signed its access token, for the client
// (`aud` and `azp`), expiring with the access token. Kept minimal: profile and e-mail claims are served
// by /userinfo only (conformance warns about `name` in an ID token of the code flow).
import type { Config } from '../../../config.ts'

export interface SignIn {
  userId: string
  clientId: string
  /** The code's nonce; none on refresh. */
  nonce: string | null
  /** When the user signed in (ms). */
  authTime: number
  /** The browser session the user signed in with. */
  browserSessionId: string
  authMethods: string[]
}

/** OIDC Core §3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  const digest = new Bun.CryptoHasher('sha256').update(accessToken).digest()
  return Buffer.from(digest.subarray(0, digest.length / 2)).toString('base64url')
}

/** The claims of the ID token issued with `accessToken`, at its `iat` and until its `exp` (seconds). */
export function idTokenClaims(config: Config, signIn: SignIn, accessToken: string, times: { iat: number; exp: number }) {
  const claims: Record<string, unknown> = {
    iss: config.authUrl,
    sub: signIn.userId,
    aud: signIn.clientId,
    azp: signIn.clientId,
    iat: times.iat,
    exp: times.exp,
    auth_time: Math.floor(signIn.authTime / 1000),
    at_hash: accessTokenHash(accessToken),
    sid: signIn.browserSessionId,
    amr: signIn.authMethods,
  }
  if (signIn.nonce !== null) claims.nonce = signIn.nonce
  return claims
}
