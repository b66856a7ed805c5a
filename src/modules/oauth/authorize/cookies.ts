// The two cookies of the authorization server's pages: the sign-in (browser SSO session) and the CSRF
// cookie. `__Host-` names under https (Secure, Path=/, no Domain: no other host or path can set them);
// plain names under http, where a browser refuses the prefix. HttpOnly and SameSite=Lax always: the
// redirect back from a client to /oauth2/auth is a top-level navigation and carries them, a cross-site
// POST or subresource does not.
import type { Config } from '../../../config.ts'

export { readCookie } from '../../../lib/cookies.ts'

export interface CookieNames {
  session: string
  csrf: string
  secure: boolean
}

export function cookieNames(config: Pick<Config, 'authUrl'>): CookieNames {
  const secure = config.authUrl.startsWith('https:')
  return secure ? { session: '__Host-sb_op', csrf: '__Host-sb_csrf', secure } : { session: 'sb_op', csrf: 'sb_csrf', secure }
}

/** 32 random bytes, base64url: the value of a new cookie. */
export function randomCookieValue(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

/** SHA-256 (hex) of a cookie value: what the sessions table keeps. */
export function cookieHash(value: string): string {
  return new Bun.CryptoHasher('sha256').update(value).digest('hex')
}

/** A Set-Cookie header value; `maxAgeS` 0 deletes the cookie. */
export function setCookie(names: CookieNames, name: string, value: string, maxAgeS: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${names.secure ? '; Secure' : ''}`
}
