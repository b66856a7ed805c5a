// Rate limits on the request path. Authenticated routes count the request against the user, the
// organization and the route's endpoint limit right after authentication (http/auth.ts); every other
// counted request — public routes, and requests that fail before or during authentication (404, 400,
// 401, ...) — counts against the client address. The most constraining window that applied becomes the
// X-RateLimit-* headers of the response, whatever its status. /health, /ready and /.well-known/* are
// never counted: probes and discovery documents must keep answering.
import type { AppDeps, UserActor } from '../context.ts'
import { AppError, rateLimited } from '../errors.ts'
import type { WindowReport } from '../lib/sliding-window.ts'
import { endpointLimitFor } from '../modules/rate-limits/endpoints.ts'
import type { RateOutcome } from '../modules/rate-limits/limiter.ts'
import { normalizeEmail } from '../modules/users/get-user.ts'
import { requestMeta, type MetaContext } from './request-meta.ts'

const RATE = Symbol('rate limit')

interface RateState {
  report: WindowReport | undefined
}

type Ctx = MetaContext

function stateOf(ctx: Ctx): RateState | undefined {
  return (ctx as unknown as Record<symbol, RateState | undefined>)[RATE]
}

/** Paths that are never counted and carry no X-RateLimit-* headers. */
export function isUncounted(path: string): boolean {
  return path === '/health' || path === '/ready' || path.startsWith('/.well-known/')
}

/** Records what a check said (keeping the most constraining report); throws the 429 of a refusal. */
function apply(ctx: Ctx, outcome: RateOutcome): void {
  const slot = ctx as unknown as Record<symbol, RateState | undefined>
  const state = (slot[RATE] ??= { report: undefined })
  const { report } = outcome
  const kept = state.report
  if (!kept || report.remaining < kept.remaining || (report.remaining === kept.remaining && report.resetAt > kept.resetAt)) state.report = report
  if (!outcome.ok) throw rateLimited(outcome.retryAfterMs / 1000, outcome.message)
}

/** An authenticated request: the user's, the organization's and the route's own limits. */
export function chargeUser(deps: AppDeps, ctx: Ctx & { route: string }, actor: UserActor): void {
  const limiter = deps.rateLimits
  if (!limiter.enabled) return
  const endpoint = endpointLimitFor(ctx.request.method, ctx.route)
  apply(ctx, limiter.user(actor.userId, actor.organizationId, actor.rates, endpoint, deps.clock.now()))
}

/** A request that is not authenticated: the client address's budget. */
export function chargeAnonymous(deps: AppDeps, ctx: Ctx): void {
  const limiter = deps.rateLimits
  if (!limiter.enabled) return
  apply(ctx, limiter.anonymous(requestMeta(ctx, deps.config.trustedProxies).ip, deps.clock.now()))
}

/** A login attempt, per address and per e-mail: called before the password is looked at. */
export function chargeLogin(deps: AppDeps, ctx: Ctx, email: string): void {
  const limiter = deps.rateLimits
  if (!limiter.enabled) return
  apply(ctx, limiter.login(requestMeta(ctx, deps.config.trustedProxies).ip, normalizeEmail(email), deps.clock.now()))
}

/**
 * For an error response: a request that failed before anything counted it (no route, a bad body, a
 * failed authentication) counts against its address now, and answers 429 instead when that budget is
 * spent. Nothing ran on its behalf, so nothing is lost by refusing it.
 */
export function chargeFailedRequest(deps: AppDeps, ctx: Ctx, path: string, error: AppError): AppError {
  if (!deps.rateLimits.enabled || stateOf(ctx) !== undefined || isUncounted(path)) return error
  try {
    chargeAnonymous(deps, ctx)
    return error
  } catch (refused) {
    if (refused instanceof AppError) return refused
    throw refused
  }
}

/** Writes the X-RateLimit-* headers of the most constraining window that applied, if any did. */
export function writeRateLimitHeaders(ctx: Ctx, headers: Record<string, string | number>): void {
  const report = stateOf(ctx)?.report
  if (report === undefined) return
  headers['x-ratelimit-limit'] = String(report.limit)
  headers['x-ratelimit-remaining'] = String(report.remaining)
  headers['x-ratelimit-reset'] = String(Math.ceil(report.resetAt / 1000))
}
