// The browser side of the authorization server: /oauth2/auth, its sign-in, MFA and consent pages, and RP-initiated logout.
// HTTP only: parameters and cookies in, a page or a redirect out (steps.ts decides). These are pages
// for a browser, not API operations: hidden from the OpenAPI document (discovery describes them), and
// every refusal is an HTML page, never the JSON error body.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { formParameters } from '../../../http/body.ts'
import { chargeLogin } from '../../../http/rate-limit.ts'
import { requestMeta } from '../../../http/request-meta.ts'
import { messagePage } from '../pages/message.ts'
import { PATHS } from '../pages/paths.ts'
import { PageExchange, type PageReply } from './exchange.ts'
import { logoutBrowser } from './logout.ts'
import { authorizeStep, consentStep, errorPage, type Form, mfaSmsStep, mfaStep, signInStep } from './steps.ts'

type Context = Parameters<typeof requestMeta>[0] & { body: unknown }

function toResponse(reply: PageReply): Response {
  const headers = new Headers(reply.headers)
  for (const cookie of reply.cookies) headers.append('set-cookie', cookie)
  return new Response(reply.body, { status: reply.status, headers })
}

/** A form body's string fields (the platform parsed it; anything else counts as no field). */
function formOf(body: unknown): Form {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {}
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}

/** The query, or the url-encoded body, with repeated names kept: a repeated parameter is refused. */
function paramsOf(c: Context): Array<[string, string]> {
  if (c.request.method === 'GET' || c.request.method === 'HEAD') return [...new URL(c.request.url).searchParams]
  const form = formParameters(c.request)
  return form ? [...form] : Object.entries(formOf(c.body))
}

export function authorizeRoutes(app: AppContext) {
  const hide = { detail: { hide: true } }
  /** Runs a step with the request's exchange; an AppError anywhere becomes a page of its own. */
  const page = (step: (ex: PageExchange, c: Context) => Promise<PageReply>) => async (c: Context) => {
    const ex = new PageExchange(app, c.request.headers.get('cookie'), c.request.method, requestMeta(c, app.config.trustedProxies))
    try {
      return toResponse(await step(ex, c))
    } catch (error) {
      if (error instanceof AppError) return toResponse(errorPage(ex, error))
      throw error
    }
  }
  const authorize = page((ex, c) => authorizeStep(app, ex, paramsOf(c)))
  const logout = page(async (ex, c) => {
    const { location } = await logoutBrowser(app, { entries: paramsOf(c), sessionCookie: ex.sessionCookie, meta: ex.meta })
    ex.signedOut()
    if (location !== undefined) return ex.redirect(location)
    return ex.page(200, messagePage('You are signed out', 'You have been signed out. You can close this window.', 'status'))
  })
  // The steps' addresses opened by GET (a bookmark, a reload, a new tab): an HTML page, not the API's 405 JSON.
  const stale = page(async (ex) =>
    ex.page(405, messagePage('This page has expired', 'Go back to the application and start again.'), undefined, { allow: 'POST' }),
  )
  return new Elysia()
    .get(PATHS.authorize, authorize, hide)
    .post(PATHS.authorize, authorize, hide)
    .post(
      PATHS.signIn,
      page((ex, c) => signInStep(app, ex, formOf(c.body), (email) => chargeLogin(app, c, email))),
      hide,
    )
    .post(
      PATHS.mfa,
      page((ex, c) => mfaStep(app, ex, formOf(c.body))),
      hide,
    )
    .post(
      PATHS.mfaSms,
      page((ex, c) => mfaSmsStep(app, ex, formOf(c.body))),
      hide,
    )
    .post(
      PATHS.consent,
      page((ex, c) => consentStep(app, ex, formOf(c.body))),
      hide,
    )
    .get(PATHS.signIn, stale, hide)
    .get(PATHS.mfa, stale, hide)
    .get(PATHS.mfaSms, stale, hide)
    .get(PATHS.consent, stale, hide)
    .get(PATHS.logout, logout, hide)
    .post(PATHS.logout, logout, hide)
}
