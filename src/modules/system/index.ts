// Routes of the system module: GET /health (liveness and cron state) and GET /ready (database writable).
// Both are public and live outside /api/v1.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { errorResponses } from '../../http/problem.ts'
import { requestState } from '../../http/request-state.ts'
import { HealthBody, ReadyBody } from './model.ts'
import { getHealth, probeDatabaseWrite } from './service.ts'

export function systemRoutes(deps: AppDeps) {
  return new Elysia()
    .get('/health', () => getHealth({ version: deps.version, startedAt: deps.startedAt, now: deps.clock.now(), scheduler: deps.scheduler }), {
      response: { 200: HealthBody, ...errorResponses() },
      detail: { tags: ['System'], summary: 'Liveness and cron loop state', description: 'Public. 200 while the process serves requests.' },
    })
    .get(
      '/ready',
      (ctx) => {
        const probe = probeDatabaseWrite(deps.db, deps.clock.now())
        if (!probe.ok) {
          deps.log.warn('not ready', { request_id: requestState(ctx).id, reason: probe.reason })
          throw new AppError('SERVICE_UNAVAILABLE', 'The database does not accept writes')
        }
        return { status: 'ready' as const }
      },
      {
        response: { 200: ReadyBody, ...errorResponses('SERVICE_UNAVAILABLE') },
        detail: { tags: ['System'], summary: 'Readiness', description: 'Public. 200 when the database accepts a write, else 503.' },
      },
    )
}
