// Every cron task of the application, in one list.
import type { Database } from 'bun:sqlite'
import type { AppDatabase } from '../db/open.ts'
import type { Revocations } from '../modules/auth/revocations.ts'
import type { RateLimiter } from '../modules/rate-limits/limiter.ts'
import type { Scheduler } from './scheduler.ts'
import { authCleanupTask } from './tasks/auth-cleanup.ts'
import { dbMaintenanceTask } from './tasks/db-maintenance.ts'
import { rateLimitSaveTask } from './tasks/rate-limit-save.ts'
import { ticketAutoCloseTask } from './tasks/ticket-auto-close.ts'

export function registerTasks(
  scheduler: Scheduler,
  deps: { sqlite: Database; db: AppDatabase; revocations: Revocations; rateLimits: RateLimiter; config: { ticketAutoCloseDays: number } },
): Scheduler {
  scheduler.register(dbMaintenanceTask(deps.sqlite)).register(authCleanupTask(deps)).register(ticketAutoCloseTask(deps))
  if (deps.rateLimits.enabled) scheduler.register(rateLimitSaveTask(deps))
  return scheduler
}
