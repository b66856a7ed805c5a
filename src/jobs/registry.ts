// Every cron task of the application, in one list: each module's own tasks (its jobs.ts, through its
// index.ts), plus the engine's maintenance.
import type { AppContext } from '../context.ts'
import { authCleanupTask } from '../modules/auth/index.ts'
import { rateLimitSaveTask } from '../modules/rate-limits/index.ts'
import { ticketAutoCloseTask } from '../modules/tickets/index.ts'
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
    .register(ticketAutoCloseTask(app, app.config.ticketAutoCloseIntervalMs))
  if (app.config.rateLimits.enabled) scheduler.register(rateLimitSaveTask(app))
  scheduler.register(webhookDispatchTask(webhooks)).register(webhookPruneTask(app))
  return scheduler
}
