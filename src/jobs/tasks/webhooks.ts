// Cron tasks of webhooks: `webhook_dispatch` sends what is due (retries, and deliveries whose claim
// ran out after a crash) every tick; `webhook_prune` deletes delivery records older than
// WEBHOOK_RETENTION_DAYS (pending ones are never pruned).
import type { Database } from 'bun:sqlite'
import type { WebhookDispatcher } from '../../modules/webhooks/dispatcher.ts'
import type { TaskDefinition } from '../scheduler.ts'

export function webhookDispatchTask(dispatcher: WebhookDispatcher, intervalMs = 1000): TaskDefinition {
  return {
    name: 'webhook_dispatch',
    intervalMs,
    run() {
      const claimed = dispatcher.pump()
      return { worked: claimed > 0, claimed, in_flight: dispatcher.inFlightCount }
    },
  }
}

export function webhookPruneTask(deps: { sqlite: Database; config: { webhooks: { retentionDays: number } } }, intervalMs = 60 * 60 * 1000): TaskDefinition {
  return {
    name: 'webhook_prune',
    intervalMs,
    run({ now }) {
      const before = now - deps.config.webhooks.retentionDays * 86_400_000
      const deleted = deps.sqlite.run("DELETE FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending'", [before]).changes
      return { worked: deleted > 0, deliveries_deleted: deleted }
    },
  }
}
