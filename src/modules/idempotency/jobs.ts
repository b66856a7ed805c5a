// The idempotency module's cron task: deletes the keys past their 24 hours, once for the cluster, in one
// short transaction. An expired key already works anew before that (begin.ts takes it over): the task
// only keeps the table small.
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { deleteExpiredKeys } from './store.ts'

export const IDEMPOTENCY_CLEANUP_INTERVAL_MS = 15 * 60 * 1000

export function idempotencyCleanupTask(app: Pick<AppContext, 'db'>, intervalMs = IDEMPOTENCY_CLEANUP_INTERVAL_MS): TaskDefinition {
  return {
    name: 'idempotency_cleanup',
    intervalMs,
    async run({ now }) {
      const deleted = await app.db.write('idempotency.cleanup', (tx) => deleteExpiredKeys(tx, now))
      return { worked: deleted > 0, keys_deleted: deleted }
    },
  }
}
