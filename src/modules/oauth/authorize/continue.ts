// What an authorization request needs next, once it is valid: a sign-in (none, another organization's,
// too old for max_age, or prompt=login), then consent (none remembered that covers the scopes, or
// prompt=consent), then the code. prompt=none never shows a page: it answers login_required or
// consent_required instead. Refusals sent to the client are written to the audit log.
import type { AppContext } from '../../../context.ts'
import { appendAudit } from '../../audit/index.ts'
import { consentPage } from '../pages/consent.ts'
import { messagePage } from '../pages/message.ts'
import { signInPage } from '../pages/sign-in.ts'
import { findGrant } from '../store.ts'
import type { AuthorizationRequest, CheckedRequest } from './check-request.ts'
import type { PageExchange, PageReply } from './exchange.ts'
import { issueCode } from './issue-code.ts'
import { type AuthorizeErrorCode, codeRedirect, errorRedirect } from './redirect.ts'
import { type SignedIn, tooOld } from './signed-in.ts'

type App = Pick<AppContext, 'db' | 'clock' | 'config' | 'masterKey'>

/** The hidden fields of a step's form: the request as received, and the CSRF token. */
export function formFields(ex: PageExchange, request: AuthorizationRequest, extra: Array<[string, string]> = []) {
  return [...request.carried, ...extra, ['csrf', ex.csrfToken()] as [string, string]]
}

/** Sends an error to the client's redirect URI (audited), or, before the URI is known good, shows it. */
export async function refuse(app: App, ex: PageExchange, refusal: Exclude<CheckedRequest, { ok: true }>, userId?: string) {
  if (refusal.page !== undefined) return ex.page(400, messagePage('This link cannot be used', refusal.page))
  const { client, error, description } = refusal
  await app.db.write('oauth.authorize.refused', (tx) =>
    appendAudit(tx, {
      organizationId: client.organization_id,
      actor: userId === undefined ? { type: 'anonymous', id: null } : { type: 'user', id: userId },
      event: 'oauth.authorize.refused',
      outcome: 'failure',
      reason: error,
      target: { type: 'oauth_client', id: client.id },
      details: { client_id: client.id, error },
      request: ex.meta,
      now: app.clock.now(),
    }),
  )
  return ex.redirect(errorRedirect(refusal.reply, error, description))
}

export function refuseRequest(
  app: App,
  ex: PageExchange,
  request: AuthorizationRequest,
  error: AuthorizeErrorCode,
  text: string,
  userId?: string,
) {
  return refuse(app, ex, { ok: false, client: request.client, reply: request.reply, error, description: text }, userId)
}

export function signInStepPage(ex: PageExchange, request: AuthorizationRequest, email: string, status = 200, error?: string) {
  const view = { clientName: request.client.name, email, error, hidden: formFields(ex, request) }
  return ex.page(status, signInPage(view), request.reply.redirectUri)
}

/** The code, at once: the user is signed in and consented. */
export async function redirectWithCode(app: App, ex: PageExchange, request: AuthorizationRequest, signedIn: SignedIn): Promise<PageReply> {
  const now = app.clock.now()
  const code = await app.db.write('oauth.code', (tx) => issueCode(tx, request, signedIn, now))
  return ex.redirect(codeRedirect(request.reply, code))
}

/**
 * The next step of a valid request for a browser signed in as `signedIn` (or not). `fresh`: the user
 * has just signed in for this very request, so prompt=login and max_age are satisfied.
 */
export async function continueAuthorization(
  app: App,
  ex: PageExchange,
  request: AuthorizationRequest,
  signedIn: SignedIn | undefined,
  fresh: boolean,
): Promise<PageReply> {
  const now = app.clock.now()
  if (!signedIn || (!fresh && (request.prompt.login || tooOld(signedIn, request.maxAgeS, now)))) {
    if (request.prompt.none) return refuseRequest(app, ex, request, 'login_required', 'The user must sign in', signedIn?.user.id)
    return signInStepPage(ex, request, request.loginHint)
  }
  const grant = await findGrant(app.db, signedIn.user.id, request.client.id)
  const granted = grant && grant.revoked_at === null ? grant.scope.split(' ') : []
  if (request.prompt.consent || !request.scopes.every((scope) => granted.includes(scope))) {
    if (request.prompt.none) return refuseRequest(app, ex, request, 'consent_required', 'The user must consent', signedIn.user.id)
    const view = {
      clientName: request.client.name,
      userEmail: signedIn.user.email,
      scopes: request.scopes,
      hidden: formFields(ex, request),
    }
    return ex.page(200, consentPage(view), request.reply.redirectUri)
  }
  return redirectWithCode(app, ex, request, signedIn)
}
