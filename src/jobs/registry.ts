// Every cron task of the application, in one list.
import type { Database } from 'bun:sqlite'
import type { AppDatabase } from '../db/open.ts'
import type { Revocations } from '../modules/auth/revocations.ts'
import type { Scheduler } from './scheduler.ts'
import { authCleanupTask } from './tasks/auth-cleanup.ts'
import { dbMaintenanceTask } from './tasks/db-maintenance.ts'
import { ticketAutoCloseTask } from './tasks/ticket-auto-close.ts'

export function registerTasks(scheduler: Scheduler, deps: { sqlite: Database; db: AppDatabase; revocations: Revocations; config: { ticketAutoCloseDays: number } }): Scheduler {
  return scheduler.register(dbMaintenanceTask(deps.sqlite)).register(authCleanupTask(deps)).register(ticketAutoCloseTask(deps))
}
