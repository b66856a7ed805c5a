// fanOut(tx, event): in the transaction that writes an event, one delivery row per webhook of the
// organization that subscribes to its type: pending (due at once) for an enabled webhook, skipped for
// a disabled one (so POST /webhooks/{id}/recover can send it later). Nothing leaves the process here:
// the dispatcher is woken once the transaction is over. Prepared statements, not the query builder:
// this runs for every event the API writes.
import { connectionOf, type Tx } from '../../db/tx.ts'
import { subscribes } from './filters.ts'
import { queueDelivery } from './queue-delivery.ts'
import { deliveriesQueued } from './signal.ts'

const SUBSCRIBERS = 'SELECT id, events, enabled FROM webhooks WHERE organization_id = ?'

export function fanOut(tx: Tx, event: { id: string; organizationId: string; type: string; now: number }): number {
  const sqlite = connectionOf(tx)
  const subscribers = sqlite.query<{ id: string; events: string; enabled: number }, [string]>(SUBSCRIBERS).all(event.organizationId)
  if (subscribers.length === 0) return 0
  let pending = 0
  for (const webhook of subscribers) {
    if (!subscribes(JSON.parse(webhook.events) as string[], event.type)) continue
    const enabled = webhook.enabled === 1
    if (enabled) pending++
    queueDelivery(sqlite, {
      organizationId: event.organizationId,
      webhookId: webhook.id,
      eventId: event.id,
      eventType: event.type,
      attempt: 1,
      trigger: 'event',
      status: enabled ? 'pending' : 'skipped',
      nextAttemptAt: enabled ? event.now : null,
      now: event.now,
    })
  }
  if (pending > 0) deliveriesQueued()
  return pending
}
