// Cron task: keeps the database healthy while running: lets the engine refresh its planner statistics
// and moves committed write-ahead-log pages into the main file without blocking readers.
import type { Database } from '../../db/database.ts'
import type { TaskDefinition } from '../scheduler.ts'

export const DB_MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000

export function dbMaintenanceTask(db: Database, intervalMs = DB_MAINTENANCE_INTERVAL_MS): TaskDefinition {
  return {
    name: 'db_maintenance',
    intervalMs,
    async run() {
      await db.admin.optimize()
      const checkpoint = await db.admin.checkpoint()
      // An engine without a log of its own, or an empty log (nothing written since the last checkpoint): nothing to report.
      if (!checkpoint) return { worked: false }
      return {
        worked: checkpoint.walFrames > 0,
        wal_frames: checkpoint.walFrames,
        checkpointed_frames: checkpoint.checkpointedFrames,
        busy: checkpoint.busy,
      }
    },
  }
}
