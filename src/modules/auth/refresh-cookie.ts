// The refresh token in a cookie, for browser clients such as the dashboard: asked with
// `refresh_cookie: true` on login, MFA verify or refresh, the refresh token is set as an HttpOnly,
// SameSite=Strict cookie sent only to POST /api/v1/auth/refresh, and left out of the JSON, so no page
// script can read it. A refresh without `refresh_token` reads the cookie; it must come from this
// server's own origin (the Origin header), so another site cannot spend it.
import type { Config } from '../../config.ts'
import { AppError } from '../../errors.ts'
import { readCookie } from '../../lib/cookies.ts'

export const REFRESH_COOKIE_PATH = '/api/v1/auth/refresh'

/** `__Secure-` under https (PUBLIC_URL or the request itself), where a browser accepts the prefix. */
function cookieName(secure: boolean): string {
  return secure ? '__Secure-sb_refresh' : 'sb_refresh'
}

function isSecure(config: Pick<Config, 'publicUrl'>, request: Request): boolean {
  return config.publicUrl.startsWith('https:') || request.url.startsWith('https:')
}

/** The Set-Cookie value that stores `token` for `maxAgeS` (0 deletes it). */
export function refreshCookie(config: Pick<Config, 'publicUrl'>, request: Request, token: string, maxAgeS: number): string {
  const secure = isSecure(config, request)
  return `${cookieName(secure)}=${token}; Path=${REFRESH_COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}

/** The refresh token of the request's cookie, when it has one of our alphabet. */
export function readRefreshCookie(config: Pick<Config, 'publicUrl'>, request: Request): string | undefined {
  const value = readCookie(request.headers.get('cookie'), cookieName(isSecure(config, request)))
  return value?.startsWith('rt_') ? value : undefined
}

/**
 * A cookie is spent only by a request of this server's own pages: its Origin is PUBLIC_URL's or the one
 * the request was sent to (its Host). SameSite=Strict already keeps other sites' requests from carrying
 * it; this check does not rely on the browser alone.
 */
export function checkCookieOrigin(config: Pick<Config, 'publicUrl'>, request: Request): void {
  const origin = request.headers.get('origin')
  let ok = false
  if (origin && origin !== 'null') {
    try {
      // The host the request was sent to (its URL is built from Host): a proxy may change the scheme.
      const url = new URL(origin)
      ok = url.origin === new URL(config.publicUrl).origin || url.host === new URL(request.url).host
    } catch {
      ok = false
    }
  }
  if (!ok) throw new AppError('ORIGIN_NOT_ALLOWED', 'The refresh cookie is accepted only from this server’s own pages (Origin header)')
}

/**
 * What a route answers with tokens: as they are, or, when the client asked for the cookie, the refresh
 * token moved into it (Set-Cookie on `headers`) and left out of the JSON.
 */
export function deliverTokens<T extends { refresh_token?: string }>(
  config: Pick<Config, 'publicUrl' | 'refreshTokenTtlS'>,
  request: Request,
  headers: Record<string, unknown>,
  tokens: T,
  inCookie: boolean | undefined,
): T {
  if (!inCookie || tokens.refresh_token === undefined) return tokens
  const { refresh_token, ...rest } = tokens
  headers['set-cookie'] = refreshCookie(config, request, refresh_token, config.refreshTokenTtlS)
  return rest as T
}
