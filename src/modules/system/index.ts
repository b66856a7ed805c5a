// Routes of the system module: GET /health (liveness and cron state) and GET /ready (database writable).
// Both are public and live outside /api/v1; neither counts in the X-RateLimit-* budgets. /ready has a
// small per-address budget of its own, since each call may write to the database.
import { Elysia } from 'elysia'
import type { AppContext, UserActor } from '../../context.ts'
import { AppError, rateLimited } from '../../errors.ts'
import { clientNetwork } from '../../lib/cidr.ts'
import { SlidingWindows } from '../../lib/sliding-window.ts'
import { errorResponses } from '../../http/problem.ts'
import { requestMeta, type MetaContext } from '../../http/request-meta.ts'
import { requestState } from '../../http/request-state.ts'
import { authenticate } from '../auth/index.ts'
import { HealthBody, ReadyBody } from './model.ts'
import { getHealth, isOperator, readinessProbe } from './service.ts'

/** /ready calls per minute from one address (an IPv6 /64): a probe every second fits. */
export const READY_PER_MINUTE = 60
const MINUTE_MS = 60_000

export function systemRoutes(app: AppContext) {
  const probe = readinessProbe(app.db)
  // Its own counters, not the request budgets: /ready never touches a client's X-RateLimit-* numbers.
  const readyCalls = new SlidingWindows(10_000)
  return new Elysia()
    .get('/health', async (ctx) => getHealth(app, { now: app.clock.now(), showErrors: isOperator(await optionalActor(app, ctx)) }), {
      response: { 200: HealthBody, ...errorResponses() },
      detail: {
        tags: ['System'],
        operationId: 'getHealth',
        summary: 'Liveness and cron loop state',
        description:
          'Public. 200 while the process serves requests. A failed cron task shows `last_error` only to a Super Admin (their access token or personal access token); anyone else sees that it failed and when. A missing or invalid credential is not an error here.',
      },
    })
    .get(
      '/ready',
      async (ctx) => {
        const now = app.clock.now()
        if (app.config.rateLimits.enabled) {
          const ip = requestMeta(ctx, app.config.trustedProxies).ip
          const verdict = readyCalls.hit(
            [{ key: ip === null ? '-' : clientNetwork(ip), limit: READY_PER_MINUTE, windowMs: MINUTE_MS }],
            now,
          )
          if (!verdict.accepted)
            throw rateLimited(
              verdict.retryAfterMs / 1000,
              `Rate limit reached: ${READY_PER_MINUTE} readiness checks per minute from this address`,
            )
        }
        const result = await probe(now)
        if (!result.ok) {
          app.log.warn('not ready', { request_id: requestState(ctx).id, reason: result.reason })
          throw new AppError('SERVICE_UNAVAILABLE', 'The database does not accept writes')
        }
        // Without Redis an instance still serves (rate limits open, revocations read from the database): ready, and says so.
        const redis = app.cluster.redisState()
        return redis === 'none' ? { status: 'ready' as const } : { status: 'ready' as const, redis }
      },
      {
        response: { 200: ReadyBody, ...errorResponses('SERVICE_UNAVAILABLE', 'RATE_LIMITED') },
        detail: {
          tags: ['System'],
          operationId: 'getReadiness',
          summary: 'Readiness',
          description: `Public. 200 when the database accepts a write (checked at most once a second), else 503; with REDIS_URL, \`redis\` says whether Redis is reachable (an instance without it still serves, degraded). ${READY_PER_MINUTE} calls a minute per client address, then 429.`,
        },
      },
    )
}

/** The caller when it sent a valid credential; nobody otherwise (an absent, expired or refused one is not an error on /health). */
async function optionalActor(app: AppContext, ctx: MetaContext): Promise<UserActor | undefined> {
  const { headers } = ctx.request
  if (!headers.has('authorization') && !headers.has('x-api-key')) return undefined
  try {
    return await authenticate(app, ctx.request, requestMeta(ctx, app.config.trustedProxies))
  } catch (error) {
    if (error instanceof AppError) return undefined
    throw error
  }
}
