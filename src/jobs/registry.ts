// Every cron task of the application, in one list.
import type { Database } from 'bun:sqlite'
import type { AppDatabase } from '../db/open.ts'
import type { Revocations } from '../modules/auth/revocations.ts'
import type { RateLimiter } from '../modules/rate-limits/limiter.ts'
import type { Scheduler } from './scheduler.ts'
import { authCleanupTask } from './tasks/auth-cleanup.ts'
import { dbMaintenanceTask } from './tasks/db-maintenance.ts'
import { rateLimitSaveTask } from './tasks/rate-limit-save.ts'
import { webhookDispatchTask, webhookPruneTask } from './tasks/webhooks.ts'
import type { WebhookDispatcher } from '../modules/webhooks/dispatcher.ts'
import type { Config } from '../config.ts'
import type { AppContext } from '../context.ts'
import { ticketAutoCloseTask } from '../modules/tickets/index.ts'

export function registerTasks(
  scheduler: Scheduler,
  deps: { app: AppContext; sqlite: Database; db: AppDatabase; revocations: Revocations; rateLimits: RateLimiter; webhooks: WebhookDispatcher; config: Config },
): Scheduler {
  scheduler
    .register(dbMaintenanceTask(deps.sqlite))
    .register(authCleanupTask(deps, deps.config.authCleanupIntervalMs))
    .register(ticketAutoCloseTask(deps.app, deps.config.ticketAutoCloseIntervalMs))
  if (deps.rateLimits.enabled) scheduler.register(rateLimitSaveTask(deps))
  scheduler.register(webhookDispatchTask(deps.webhooks)).register(webhookPruneTask(deps))
  return scheduler
}
