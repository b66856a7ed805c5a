// Cron tasks of webhooks: `webhook_dispatch` sends what is due (retries, and deliveries whose claim
// ran out after a crash) every tick; `webhook_prune` deletes delivery records older than
// WEBHOOK_RETENTION_DAYS (pending ones are never pruned).
import { type AppContext, contextFor } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import type { WebhookDispatcher } from './dispatcher.ts'
import { pruneDeliveryRecords } from './prune.ts'

export function webhookDispatchTask(dispatcher: Pick<WebhookDispatcher, 'pump' | 'inFlightCount'>, intervalMs = 1000): TaskDefinition {
  return {
    name: 'webhook_dispatch',
    intervalMs,
    async run() {
      const claimed = await dispatcher.pump()
      return { worked: claimed > 0, claimed, in_flight: dispatcher.inFlightCount }
    },
  }
}

export function webhookPruneTask(app: AppContext, intervalMs = 60 * 60 * 1000): TaskDefinition {
  const ctx = contextFor(app, { kind: 'system', id: 'cron' })
  return {
    name: 'webhook_prune',
    intervalMs,
    async run({ now }) {
      const deleted = await pruneDeliveryRecords(ctx, { now })
      return { worked: deleted > 0, deliveries_deleted: deleted }
    },
  }
}
