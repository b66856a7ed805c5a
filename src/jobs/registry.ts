// Every cron task of the application, in one list: each module's own tasks (its jobs.ts, through its
// index.ts), plus the engine's maintenance. A task runs once per cluster unless its scope is `instance`.
import type { AppContext } from '../context.ts'
import { agentsTasks } from '../modules/agents/index.ts'
import { authCleanupTask, revocationsPruneTask } from '../modules/auth/index.ts'
import { billingTasks } from '../modules/billing/index.ts'
import { callsTasks } from '../modules/calls/index.ts'
import { engagementsTasks } from '../modules/engagements/index.ts'
import { idempotencyCleanupTask } from '../modules/idempotency/index.ts'
import { mfaCleanupTask } from '../modules/mfa/index.ts'
import { oauthCleanupTask } from '../modules/oauth/index.ts'
import { rateLimitSaveTask } from '../modules/rate-limits/index.ts'
import { reportsTasks } from '../modules/reports/index.ts'
import { surveysTasks } from '../modules/surveys/index.ts'
import { ticketAutoCloseTask } from '../modules/tickets/index.ts'
import { uploadsTasks } from '../modules/uploads/index.ts'
import { type WebhookDispatcher, webhookDispatchTask, webhookPruneTask } from '../modules/webhooks/index.ts'
import type { Scheduler } from './scheduler.ts'
import { dbMaintenanceTask } from './tasks/db-maintenance.ts'

export function registerTasks(
  scheduler: Scheduler,
  app: AppContext,
  webhooks: Pick<WebhookDispatcher, 'pump' | 'inFlightCount'>,
): Scheduler {
  scheduler
    .register(dbMaintenanceTask(app.db))
    .register(authCleanupTask(app, app.config.authCleanupIntervalMs))
    .register(mfaCleanupTask(app, app.config.authCleanupIntervalMs))
    .register(revocationsPruneTask(app, app.config.authCleanupIntervalMs))
    .register(oauthCleanupTask(app, app.config.authCleanupIntervalMs))
    .register(ticketAutoCloseTask(app, app.config.ticketAutoCloseIntervalMs))
    .register(idempotencyCleanupTask(app))
  for (const task of [
    ...uploadsTasks(app),
    ...callsTasks(app),
    ...agentsTasks(app),
    ...billingTasks(app),
    ...engagementsTasks(app),
    ...surveysTasks(app),
    ...reportsTasks(app),
  ])
    scheduler.register(task)
  // The counters of this process's memory (in Redis, Redis keeps them).
  if (app.config.rateLimits.enabled && app.config.redisUrl === undefined)
    scheduler.register({ ...rateLimitSaveTask(app), scope: 'instance' })
  // Each instance sends what it claimed; the claims decide which instance sends a delivery.
  scheduler.register({ ...webhookDispatchTask(webhooks), scope: 'instance' }).register(webhookPruneTask(app))
  return scheduler
}
