// Authentication and authorization macros for routes. `auth: true` needs a valid credential (access
// token or personal access token); `permission: 'ticket:read'` also needs that permission;
// `session: 'full' | 'mfa_enrollment'` needs the access token of a sign-in (never a personal access
// token), 'mfa_enrollment' also accepting the restricted tokens of a user who must enroll in MFA first.
// Each resolves `{ actor, ctx }` — the actor and the verb context of the request — in one shape per
// macro (elysia#1891), then claims the request's Idempotency-Key if it carries one (http/idempotency.ts).
// Built once per app, whatever number of route factories use it. The modules that check are reached
// through `app.guards` (src/request-guards.ts), never imported: their routes import this file.
import { Elysia } from 'elysia'
import { type AppContext, contextFor, type Ctx, type SessionActor, type SystemActor, type UserActor } from '../context.ts'
import { AppError, type ErrorCode } from '../errors.ts'
import type { RouteTable } from '../lib/route-match.ts'
import type { Permission } from '../vocabulary.ts'
import { claimIdempotencyKey } from './idempotency.ts'
import { errorResponses } from './problem.ts'
import { chargeAnonymous, chargeUser } from './rate-limit.ts'
import { type MetaContext, requestMeta } from './request-meta.ts'
import { pathOf } from './request-state.ts'

const security: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyAuth: [] }]
const sessionSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }]
const operatorSecurity: Record<string, string[]>[] = [{ operatorAuth: [] }]

/** The order of every protected request: authenticate (with the IP allowlist), then rate limits, then the permission check. */
async function authenticated(app: AppContext, ctx: MetaContext & { route: string }, allowEnrollmentOnly = false): Promise<UserActor> {
  const actor = await app.guards.authenticate(app, ctx.request, requestMeta(ctx, app.config.trustedProxies))
  // Counters in Redis answer with a promise; in memory at once (no await: nothing more per request).
  const charged = chargeUser(app, ctx, actor)
  if (charged) await charged
  if (!allowEnrollmentOnly && actor.credential.type === 'session' && actor.credential.mfaEnrollmentOnly)
    throw new AppError('MFA_ENROLLMENT_REQUIRED')
  return actor
}

// Elysia dedupes a plugin by name and seed: one number per app (the app itself is no JSON seed).
const macrosOf = new WeakMap<AppContext, ReturnType<typeof buildMacros>>()
let apps = 0

function buildMacros(app: AppContext) {
  // After each macro's resolve (hooks run in the order of their keys): authenticated, counted and
  // authorized, the request claims its key last, just before the handler; a replay answers here.
  // Each hook names what it reads, never its whole context (request-state.ts says why).
  const idempotency = {
    beforeHandle: async ({ request, route, actor }: { request: Request; route: string; actor?: UserActor | SystemActor }) =>
      claimIdempotencyKey(app, { request, route, actor }),
  }
  return new Elysia({ name: 'auth-macros', seed: ++apps }).macro({
    auth: {
      async resolve({ request, route, server }): Promise<{ actor: UserActor; ctx: Ctx<UserActor> }> {
        const actor = await authenticated(app, { request, route, server })
        return { actor, ctx: contextFor(app, actor) }
      },
      ...idempotency,
      detail: { security },
    },
    permission: (permission: Permission) => ({
      async resolve({ request, route, server }): Promise<{ actor: UserActor; ctx: Ctx<UserActor> }> {
        const actor = await authenticated(app, { request, route, server })
        app.guards.requirePermission(actor, permission)
        return { actor, ctx: contextFor(app, actor) }
      },
      ...idempotency,
      // Not a description: the macro's would replace the route's own (openapi-document.ts writes both).
      detail: { security, 'x-permission': permission },
    }),
    // The operator's routes (an operator token, `sbo_…`): above every organization, so counted against
    // the client address's budget (UNAUTH_PER_MINUTE), as a failed authentication is.
    operator: {
      async resolve({ request, server }): Promise<{ actor: SystemActor; ctx: Ctx<SystemActor> }> {
        const ctx = await app.guards.authenticateOperator(app, request)
        const charged = chargeAnonymous(app, { request, server })
        if (charged) await charged
        return { actor: ctx.actor, ctx }
      },
      ...idempotency,
      detail: { security: operatorSecurity },
    },
    session: (mode: 'full' | 'mfa_enrollment') => ({
      async resolve({ request, route, server }): Promise<{ actor: SessionActor; ctx: Ctx<SessionActor> }> {
        const actor = app.guards.requireSession(await authenticated(app, { request, route, server }, mode === 'mfa_enrollment'))
        return { actor, ctx: contextFor(app, actor) }
      },
      ...idempotency,
      detail: { security: sessionSecurity },
    }),
  })
}

/** The auth macros of `app` (the same plugin for every route factory of one app). */
export function authMacros(app: AppContext) {
  let macros = macrosOf.get(app)
  if (!macros) macrosOf.set(app, (macros = buildMacros(app)))
  return macros
}

/**
 * Before routing and before the body is read: a request to a protected route that carries no credential
 * at all is answered 401 here, as its macro would, so an anonymous caller never reaches a validator.
 * (Elysia validates a body before a route's resolve runs.) Requests that carry one are checked in full
 * by the macro; so are GET and HEAD, which have no body.
 */
/** The request carries a credential, good or bad: an Authorization or an X-API-Key header. */
export function presentsCredential(request: Request): boolean {
  return request.headers.has('authorization') || request.headers.has('x-api-key')
}

export function refuseWithoutCredential(app: Pick<AppContext, 'guards'>, request: Request, routes: RouteTable): void {
  const { method } = request
  if (method === 'GET' || method === 'HEAD' || presentsCredential(request)) return
  const scheme = routes.credentialFor(method, pathOf(request.url))
  if (scheme === 'user') throw app.guards.missingCredential()
  if (scheme === 'operator') throw app.guards.missingOperatorToken()
}

/** Error responses of an authenticated route, plus the route's own codes. */
export function protectedErrors(...codes: ErrorCode[]) {
  return errorResponses(
    'UNAUTHENTICATED',
    'TOKEN_INVALID',
    'TOKEN_EXPIRED',
    'INSUFFICIENT_PERMISSIONS',
    'IP_NOT_ALLOWED',
    'MFA_ENROLLMENT_REQUIRED',
    'RATE_LIMITED',
    ...codes,
  )
}
