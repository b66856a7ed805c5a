// pruneDeliveryRecords: delivery records older than WEBHOOK_RETENTION_DAYS go; pending ones never do.
import type { Ctx } from '../../context.ts'
import { pruneDeliveries } from './store/deliveries.ts'

export async function pruneDeliveryRecords(ctx: Ctx, input: { now: number }): Promise<number> {
  const before = input.now - ctx.config.webhooks.retentionDays * 86_400_000
  return ctx.db.write('webhook.prune', (tx) => pruneDeliveries(tx, before))
}
