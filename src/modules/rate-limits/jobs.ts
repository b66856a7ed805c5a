// The rate-limits module's cron task for in-memory counters: saves the daily (and hourly) counters and
// drops counters that have gone idle. Shutdown saves once more, so only a crash can lose counts: at most
// one interval's. Counters in Redis need neither (Redis keeps them, and expires them itself).
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { localRateCounters } from './limiter.ts'
import { saveRateCounters } from './store.ts'

export const RATE_LIMIT_SAVE_INTERVAL_MS = 10_000

/** Register it only when `localRateCounters(app.ports.rateCounters)` says the counters are in memory. */
export function rateLimitSaveTask(app: AppContext, intervalMs = RATE_LIMIT_SAVE_INTERVAL_MS): TaskDefinition {
  const counters = localRateCounters(app.ports.rateCounters)
  if (counters === undefined) throw new Error('rate_limit_save is for in-memory rate counters: Redis keeps its own')
  return {
    name: 'rate_limit_save',
    intervalMs,
    async run({ now }) {
      const { saved, deleted } = await saveRateCounters(app.db, counters, now)
      const dropped = counters.sweep(now)
      return {
        worked: saved + deleted + dropped > 0,
        counters_saved: saved,
        counters_deleted: deleted,
        counters_dropped: dropped,
        counters_in_memory: counters.size,
      }
    },
  }
}
