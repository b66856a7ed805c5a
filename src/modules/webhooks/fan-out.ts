// The fan-out, an EventSubscriber (ports.ts) of recordChange: in the transaction that writes an event,
// one delivery row per webhook of the organization that subscribes to its type — pending (due at once)
// for an enabled webhook, skipped for a disabled one (so POST /webhooks/{id}/recover can send it later).
// Nothing leaves the process here: the dispatchers are woken once the transaction has committed.
import type { EventSubscriber, Wakeups } from '../../ports.ts'
import { filtersOf, subscribes } from './filters.ts'
import { deliveryRow } from './queue-delivery.ts'
import { insertDelivery } from './store/deliveries.ts'
import { subscribersOf } from './store/webhooks.ts'

/** The subscriber that queues an event's deliveries and wakes the dispatchers through `wakeups` after the commit. */
export function fanOutSubscriber(wakeups: Wakeups): EventSubscriber {
  const wake = () => wakeups.deliveriesQueued()
  return async (tx, event) => {
    const subscribers = await subscribersOf(tx, event.organizationId)
    if (subscribers.length === 0) return
    let pending = false
    const rows: ReturnType<typeof deliveryRow>[] = []
    for (const webhook of subscribers) {
      if (!subscribes(filtersOf(webhook.events), event.type)) continue
      const enabled = Boolean(webhook.enabled)
      pending ||= enabled
      const row = deliveryRow({
        organizationId: event.organizationId,
        webhookId: webhook.id,
        eventId: event.id,
        eventType: event.type,
        attempt: 1,
        trigger: 'event',
        status: enabled ? 'pending' : 'skipped',
        nextAttemptAt: enabled ? event.createdAt : null,
        now: event.createdAt,
      })
      rows.push(row)
    }
    // In the commit pipeline, after the event row they name (recordChange registers it first).
    if (rows.length > 0) void tx.atCommit(() => Promise.all(rows.map((row) => insertDelivery(tx, row))))
    if (pending) tx.afterCommit(wake)
  }
}
