// Cron task: saves the daily (and hourly) rate-limit counters to SQLite and drops in-memory counters
// that have gone idle. Shutdown saves once more, so only a crash can lose counts: at most one interval's.
import type { Database } from 'bun:sqlite'
import type { RateLimiter } from '../../modules/rate-limits/limiter.ts'
import { saveRateCounters } from '../../modules/rate-limits/store.ts'
import type { TaskDefinition } from '../scheduler.ts'

export const RATE_LIMIT_SAVE_INTERVAL_MS = 10_000

export function rateLimitSaveTask(deps: { sqlite: Database; rateLimits: RateLimiter }, intervalMs = RATE_LIMIT_SAVE_INTERVAL_MS): TaskDefinition {
  return {
    name: 'rate_limit_save',
    intervalMs,
    run({ now }) {
      const { saved, deleted } = saveRateCounters(deps.sqlite, deps.rateLimits, now)
      const dropped = deps.rateLimits.windows.sweep(now)
      return { worked: saved + deleted + dropped > 0, counters_saved: saved, counters_deleted: deleted, counters_dropped: dropped, counters_in_memory: deps.rateLimits.windows.size }
    },
  }
}
