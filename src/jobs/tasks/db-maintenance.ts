// Cron task: keeps SQLite healthy while running: refreshes query-planner statistics and moves
// committed WAL pages into the main file without blocking readers or writers.
import type { Database } from 'bun:sqlite'
import type { TaskDefinition } from '../scheduler.ts'

export const DB_MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000

export function dbMaintenanceTask(sqlite: Database, intervalMs = DB_MAINTENANCE_INTERVAL_MS): TaskDefinition {
  return {
    name: 'db_maintenance',
    intervalMs,
    run() {
      sqlite.run('PRAGMA optimize')
      // PASSIVE: checkpoint what it can without waiting on readers; returns [busy, wal frames, checkpointed].
      const row = sqlite.query<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()
      const walFrames = row?.log ?? 0
      // An empty WAL means nothing was written since the last checkpoint: nothing to report.
      return { worked: walFrames > 0, wal_frames: walFrames, checkpointed_frames: row?.checkpointed ?? 0, busy: row?.busy === 1 }
    },
  }
}
