// The pages' endpoints, framework-free: each takes the request's parameters and its PageExchange and
// answers a page or a redirect. Every form POST is CSRF-checked first, then its authorization request
// is checked again exactly like the first one.
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { messagePage } from '../pages/message.ts'
import { mfaPage } from '../pages/mfa.ts'
import { type AuthorizationRequest, CARRIED_PARAMS, checkAuthorizationRequest } from './check-request.ts'
import { decideConsent } from './consent.ts'
import { continueAuthorization, formFields, refuse, signInStepPage } from './continue.ts'
import type { PageExchange, PageReply } from './exchange.ts'
import { challengeMethods, methodOfCode, sendMfaSms, verifyMfaStep } from './mfa-step.ts'
import { codeRedirect, errorRedirect } from './redirect.ts'
import { signInWithPassword } from './sign-in.ts'
import { signedInFor } from './signed-in.ts'

export type Form = Record<string, string>

/** An error shown as a page of its own (no way back to the client from here). */
export function errorPage(ex: PageExchange, error: AppError, redirectUri?: string): PageReply {
  const extra: Record<string, string> = error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) }
  const title = error.code === 'RATE_LIMITED' ? 'Too many attempts' : 'You cannot continue'
  return ex.page(error.status, messagePage(title, error.message), redirectUri, extra)
}

/** GET or POST /oauth2/auth from the client. */
export async function authorizeStep(app: AppContext, ex: PageExchange, entries: Iterable<[string, string]>): Promise<PageReply> {
  const checked = await checkAuthorizationRequest(app.db, app.config.authUrl, entries)
  if (!checked.ok) return refuse(app, ex, checked)
  const { request } = checked
  const signedIn = await signedInFor(app, ex.sessionCookie, request.client.organization_id, ex.meta)
  return continueAuthorization(app, ex, request, signedIn, false)
}

const EXPIRED = 'This page has expired. Go back to the application and start again.'

/** A step's form: its CSRF token, then its authorization request, as the first request was checked. */
async function formRequest(app: AppContext, ex: PageExchange, form: Form): Promise<AuthorizationRequest | PageReply> {
  if (!ex.csrfValid(form.csrf)) return ex.page(403, messagePage('This form has expired', EXPIRED))
  const carried = CARRIED_PARAMS.flatMap((name): Array<[string, string]> => (form[name] === undefined ? [] : [[name, form[name]!]]))
  const checked = await checkAuthorizationRequest(app.db, app.config.authUrl, carried)
  return checked.ok ? checked.request : refuse(app, ex, checked)
}

/** POST /oauth2/auth/sign-in: `charge` counts the attempt against the login rate limit (it throws a 429). */
export async function signInStep(app: AppContext, ex: PageExchange, form: Form, charge: (email: string) => unknown): Promise<PageReply> {
  const request = await formRequest(app, ex, form)
  if (!('client' in request)) return request
  const email = (form.email ?? '').trim().slice(0, 254)
  const password = (form.password ?? '').slice(0, 256)
  if (email === '' || password === '') return signInStepPage(ex, request, email, 400, 'Enter your e-mail address and your password.')
  try {
    await charge(email)
  } catch (error) {
    if (error instanceof AppError) return errorPage(ex, error)
    throw error
  }
  const outcome = await signInWithPassword(app, {
    client: request.client,
    email,
    password,
    replacedCookie: ex.sessionCookie,
    request: ex.meta,
  })
  if (outcome.kind === 'refused') {
    if (outcome.error.code === 'INVALID_CREDENTIALS') return signInStepPage(ex, request, email, 401, outcome.error.message)
    return errorPage(ex, outcome.error)
  }
  if (outcome.kind === 'mfa') {
    const mode = outcome.methods.includes('totp') ? 'totp' : 'sms'
    return mfaStepPage(ex, request, outcome.mfaToken, { mode, smsOffered: outcome.methods.includes('sms') })
  }
  ex.signedIn(outcome.cookieValue)
  return continueAuthorization(app, ex, request, outcome.signedIn, true)
}

function mfaStepPage(
  ex: PageExchange,
  request: AuthorizationRequest,
  mfaToken: string,
  view: { mode: 'totp' | 'sms'; smsOffered: boolean; smsSent?: boolean; error?: string; notice?: string },
  status = 200,
): PageReply {
  const hidden = formFields(ex, request, [['mfa_token', mfaToken]])
  return ex.page(status, mfaPage({ clientName: request.client.name, ...view, hidden }), request.reply.redirectUri)
}

/** POST /oauth2/auth/mfa: the code of the challenge the sign-in started. */
export async function mfaStep(app: AppContext, ex: PageExchange, form: Form): Promise<PageReply> {
  const request = await formRequest(app, ex, form)
  if (!('client' in request)) return request
  const mfaToken = form.mfa_token ?? ''
  const mode = form.method === 'sms' ? 'sms' : 'totp'
  const code = (form.code ?? '').trim().slice(0, 64)
  const again = (error: string, status: number) =>
    challengeMethods(app, mfaToken).then((methods) =>
      methods === undefined
        ? signInStepPage(ex, request, '', 401, 'Your sign-in has expired or used up its attempts: sign in again.')
        : mfaStepPage(ex, request, mfaToken, { mode, smsOffered: methods.includes('sms'), smsSent: form.sms_sent === '1', error }, status),
    )
  if (code === '') return again('Enter the verification code.', 400)
  const outcome = await verifyMfaStep(app, {
    client: request.client,
    mfaToken,
    code,
    method: methodOfCode(code, mode),
    replacedCookie: ex.sessionCookie,
    request: ex.meta,
  })
  if (outcome.kind === 'refused') {
    const { error } = outcome
    if (error.code === 'INVALID_MFA_CODE' || error.code === 'TOKEN_INVALID') return again(error.message, 401)
    if (error.code === 'VALIDATION_FAILED') return again('Enter a code of one of the methods offered, or a recovery code.', 400)
    return errorPage(ex, error)
  }
  ex.signedIn(outcome.cookieValue)
  return continueAuthorization(app, ex, request, outcome.signedIn, true)
}

/** POST /oauth2/auth/mfa/sms: text the code, then ask for it. */
export async function mfaSmsStep(app: AppContext, ex: PageExchange, form: Form): Promise<PageReply> {
  const request = await formRequest(app, ex, form)
  if (!('client' in request)) return request
  const mfaToken = form.mfa_token ?? ''
  const sent = await sendMfaSms(app, { mfaToken, request: ex.meta })
  if ('phone' in sent)
    return mfaStepPage(ex, request, mfaToken, { mode: 'sms', smsOffered: true, smsSent: true, notice: `We sent a code to ${sent.phone}.` })
  if (sent.error.code === 'TOKEN_INVALID') return signInStepPage(ex, request, '', 401, 'Your sign-in has expired: sign in again.')
  const methods = (await challengeMethods(app, mfaToken)) ?? []
  const mode = form.method === 'sms' || !methods.includes('totp') ? 'sms' : 'totp'
  const view = { mode, smsOffered: true, smsSent: form.sms_sent === '1', error: sent.error.message } as const
  return mfaStepPage(ex, request, mfaToken, view, sent.error.status)
}

/** POST /oauth2/auth/consent: Allow or Deny, by the browser's signed-in user. */
export async function consentStep(app: AppContext, ex: PageExchange, form: Form): Promise<PageReply> {
  const request = await formRequest(app, ex, form)
  if (!('client' in request)) return request
  const signedIn = await signedInFor(app, ex.sessionCookie, request.client.organization_id, ex.meta)
  // Signed out (or as someone else's organization) since the page was shown: sign in again.
  if (!signedIn) return signInStepPage(ex, request, request.loginHint)
  const allow = form.decision === 'allow'
  if (!allow && form.decision !== 'deny') return ex.page(400, messagePage('Choose Allow or Deny', EXPIRED))
  const outcome = await decideConsent(app, { request, signedIn, allow, meta: ex.meta })
  if ('code' in outcome) return ex.redirect(codeRedirect(request.reply, outcome.code))
  return ex.redirect(errorRedirect(request.reply, 'access_denied', 'The user denied access'))
}
