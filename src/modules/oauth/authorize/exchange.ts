// One request to the authorization server's pages, framework-free: the cookies it came with, the
// cookies to set, and the answer (a page with its headers, or a redirect). The routes turn it into a
// Response; the steps never see Elysia.
import type { AppContext, RequestMeta } from '../../../context.ts'
import { pageHeaders } from '../pages/headers.ts'
import { type CookieNames, cookieNames, randomCookieValue, readCookie, setCookie } from './cookies.ts'
import { csrfToken, csrfValid } from './csrf.ts'

export interface PageReply {
  status: number
  headers: Record<string, string>
  /** Set-Cookie values. */
  cookies: string[]
  body: string | null
}

export class PageExchange {
  readonly names: CookieNames
  /** The sign-in cookie the browser sent (a browser session's, if still live). */
  readonly sessionCookie: string | undefined
  private readonly csrfCookie: string | undefined
  private newCsrfCookie: string | undefined
  private readonly cookies: string[] = []

  constructor(
    private readonly app: Pick<AppContext, 'config' | 'masterKey'>,
    cookieHeader: string | null,
    readonly method: string,
    readonly meta: RequestMeta,
  ) {
    this.names = cookieNames(app.config)
    this.sessionCookie = readCookie(cookieHeader, this.names.session)
    this.csrfCookie = readCookie(cookieHeader, this.names.csrf)
  }

  /** The token for this page's forms; gives the browser a CSRF cookie if it has none. */
  csrfToken(): string {
    let value = this.csrfCookie ?? this.newCsrfCookie
    if (value === undefined) {
      value = this.newCsrfCookie = randomCookieValue()
      this.cookies.push(setCookie(this.names, this.names.csrf, value, this.app.config.sessionMaxAgeS))
    }
    return csrfToken(this.app.masterKey, value)
  }

  csrfValid(token: string | undefined): boolean {
    return csrfValid(this.app.masterKey, this.csrfCookie, token)
  }

  /** The browser is now signed in with a new session: its cookie replaces the old one. */
  signedIn(cookieValue: string): void {
    this.cookies.push(setCookie(this.names, this.names.session, cookieValue, this.app.config.sessionMaxAgeS))
  }

  signedOut(): void {
    this.cookies.push(setCookie(this.names, this.names.session, '', 0))
  }

  /** An HTML page; `redirectUri` is where its form may end up (allowed in form-action). */
  page(status: number, html: string, redirectUri?: string, extra: Record<string, string> = {}): PageReply {
    return { status, headers: { ...pageHeaders(redirectUri), ...extra }, cookies: this.cookies, body: html }
  }

  /** To the client: 302 after a GET, 303 after a POST (the browser then GETs the URI). */
  redirect(location: string): PageReply {
    const status = this.method === 'POST' ? 303 : 302
    const headers = { location, 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer' }
    return { status, headers, cookies: this.cookies, body: null }
  }
}
