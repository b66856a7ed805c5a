// Rate limits on the request path. Authenticated routes count the request against the user, the
// organization and the route's endpoint limit right after authentication (http/auth.ts); every other
// counted request — public routes, and requests that fail before or during authentication (404, 400,
// 401, ...) — counts against the client address. The most constraining window that applied becomes the
// X-RateLimit-* headers of the response, whatever its status. /health, /ready and /.well-known/* are
// never counted: probes and discovery documents must keep answering. Each charge answers at once from
// counters in memory and with a promise from counters in Redis: callers await only a promise
// (`const pending = chargeUser(...); if (pending) await pending`), so one process pays nothing more.
// The rate-limits module is reached through `app.guards` (src/request-guards.ts): this file imports no module.
import type { AppContext, UserActor } from '../context.ts'
import { AppError, rateLimited } from '../errors.ts'
import type { WindowReport } from '../lib/sliding-window.ts'
import type { RateAnswer, RateOutcome } from '../ports.ts'
import { requestMeta, type MetaContext } from './request-meta.ts'

/** What charging a request needs of the app. */
export type RateApp = Pick<AppContext, 'config' | 'ports' | 'clock' | 'guards'>

const RATE = Symbol('rate limit')

interface RateState {
  report: WindowReport | undefined
}

type Ctx = MetaContext

function stateOf(ctx: Ctx): RateState | undefined {
  return (ctx.request as unknown as Record<symbol, RateState | undefined>)[RATE]
}

/** Paths that are never counted and carry no X-RateLimit-* headers. */
export function isUncounted(path: string): boolean {
  return path === '/health' || path === '/ready' || path.startsWith('/.well-known/')
}

/** Records what a check said (keeping the most constraining report); throws the 429 of a refusal. */
function apply(ctx: Ctx, outcome: RateOutcome): void {
  const slot = ctx.request as unknown as Record<symbol, RateState | undefined>
  const state = (slot[RATE] ??= { report: undefined })
  const { report } = outcome
  const kept = state.report
  if (!kept || report.remaining < kept.remaining || (report.remaining === kept.remaining && report.resetAt > kept.resetAt))
    state.report = report
  if (!outcome.ok) throw rateLimited(outcome.retryAfterMs / 1000, outcome.message)
}

/** `answer` applied to the request: at once, or once the counters in Redis have answered. */
function applyAnswer(ctx: Ctx, answer: RateAnswer): void | Promise<void> {
  if (answer instanceof Promise) return answer.then((outcome) => apply(ctx, outcome))
  apply(ctx, answer)
}

/** An authenticated request: the user's, the organization's and the route's own limits. */
export function chargeUser(app: RateApp, ctx: Ctx & { route: string }, actor: UserActor): void | Promise<void> {
  if (!app.config.rateLimits.enabled) return
  const endpoint = app.guards.endpointLimitFor(ctx.request.method, ctx.route)
  return applyAnswer(ctx, app.guards.rateLimiter(app).user(actor.userId, actor.organizationId, actor.rates, endpoint, app.clock.now()))
}

/** A request that is not authenticated: the client address's budget. */
export function chargeAnonymous(app: RateApp, ctx: Ctx): void | Promise<void> {
  if (!app.config.rateLimits.enabled) return
  return applyAnswer(ctx, app.guards.rateLimiter(app).anonymous(requestMeta(ctx, app.config.trustedProxies).ip, app.clock.now()))
}

/** A login attempt, per address and per e-mail: called before the password is looked at. */
export function chargeLogin(app: RateApp, ctx: Ctx, email: string): void | Promise<void> {
  if (!app.config.rateLimits.enabled) return
  const limiter = app.guards.rateLimiter(app)
  return applyAnswer(ctx, limiter.login(requestMeta(ctx, app.config.trustedProxies).ip, app.guards.normalizeEmail(email), app.clock.now()))
}

/**
 * For an error response: a request that failed before anything counted it (no route, a bad body, a
 * failed authentication) counts against its address now, and answers 429 instead when that budget is
 * spent. Nothing ran on its behalf, so nothing is lost by refusing it.
 */
export function chargeFailedRequest(app: RateApp, ctx: Ctx, path: string, error: AppError): AppError | Promise<AppError> {
  if (!app.config.rateLimits.enabled || stateOf(ctx) !== undefined || isUncounted(path)) return error
  try {
    const pending = chargeAnonymous(app, ctx)
    return pending ? pending.then(() => error, refusal) : error
  } catch (refused) {
    return refusal(refused)
  }
}

function refusal(refused: unknown): AppError {
  if (refused instanceof AppError) return refused
  throw refused
}

/** Writes the X-RateLimit-* headers of the most constraining window that applied, if any did. */
export function writeRateLimitHeaders(ctx: Ctx, headers: Record<string, string | number>): void {
  const report = stateOf(ctx)?.report
  if (report === undefined) return
  headers['x-ratelimit-limit'] = String(report.limit)
  headers['x-ratelimit-remaining'] = String(report.remaining)
  headers['x-ratelimit-reset'] = String(Math.ceil(report.resetAt / 1000))
}
