// Every cron task of the application, in one list.
import type { Database } from 'bun:sqlite'
import type { Scheduler } from './scheduler.ts'
import { dbMaintenanceTask } from './tasks/db-maintenance.ts'

export function registerTasks(scheduler: Scheduler, deps: { sqlite: Database }): Scheduler {
  return scheduler.register(dbMaintenanceTask(deps.sqlite))
}
