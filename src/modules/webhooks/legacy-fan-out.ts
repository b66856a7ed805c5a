// TRANSITIONAL (issue 13): the synchronous fan-out behind events/emit.ts, for the modules that still
// write events with emit() inside a drizzle transaction. The ported ones go through recordChange and
// the fan-out subscriber (fan-out.ts). Delete this file with emit().
import { connectionOf, type Tx } from '../../db/tx.ts'
import { filtersOf, subscribes } from './filters.ts'
import { deliveryRow } from './queue-delivery.ts'
import { legacyDeliveriesQueued } from './signal.ts'

const SUBSCRIBERS = 'SELECT id, events, enabled FROM webhooks WHERE organization_id = ?'
const INSERT = `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at, lease_until, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/** @deprecated TRANSITIONAL (issue 13): use recordChange (events) — the fan-out subscriber queues the deliveries. */
export function fanOut(tx: Tx, event: { id: string; organizationId: string; type: string; now: number }): number {
  const sqlite = connectionOf(tx)
  const subscribers = sqlite.query<{ id: string; events: string; enabled: number }, [string]>(SUBSCRIBERS).all(event.organizationId)
  let pending = 0
  for (const webhook of subscribers) {
    if (!subscribes(filtersOf(webhook.events), event.type)) continue
    const enabled = webhook.enabled === 1
    if (enabled) pending++
    const d = deliveryRow({
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
    sqlite.query(INSERT).run(d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempt, d.trigger, d.status, d.next_attempt_at, d.lease_until, d.created_at)
  }
  if (pending > 0) legacyDeliveriesQueued()
  return pending
}
