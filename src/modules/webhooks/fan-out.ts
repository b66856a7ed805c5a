// fanOut(tx, event): in the transaction that writes an event, one delivery row per webhook of the
// organization that subscribes to its type: pending (due at once) for an enabled webhook, skipped for
// a disabled one (so POST /webhooks/{id}/recover can send it later). Nothing leaves the process here:
// the dispatcher is woken once the transaction is over.
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { subscribes } from './filters.ts'
import { deliveriesQueued } from './signal.ts'
import { webhookDeliveries, webhooks } from './table.ts'

export function fanOut(tx: Tx, event: { id: string; organizationId: string; type: string; now: number }): number {
  const subscribers = tx.select({ id: webhooks.id, events: webhooks.events, enabled: webhooks.enabled }).from(webhooks).where(eq(webhooks.organization_id, event.organizationId)).all()
  let pending = 0
  const rows = []
  for (const webhook of subscribers) {
    if (!subscribes(JSON.parse(webhook.events) as string[], event.type)) continue
    const { enabled } = webhook
    if (enabled) pending++
    rows.push({
      id: prefixedId('dlv'),
      organization_id: event.organizationId,
      webhook_id: webhook.id,
      event_id: event.id,
      event_type: event.type,
      attempt: 1,
      trigger: 'event' as const,
      status: enabled ? ('pending' as const) : ('skipped' as const),
      next_attempt_at: enabled ? event.now : null,
      created_at: event.now,
    })
  }
  if (rows.length > 0) tx.insert(webhookDeliveries).values(rows).run()
  if (pending > 0) deliveriesQueued()
  return pending
}
