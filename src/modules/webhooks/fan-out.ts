// fanOut(tx, event): in the transaction that writes an event, one delivery row per webhook of the
// organization that subscribes to its type: pending (due at once) for an enabled webhook, skipped for
// a disabled one (so POST /webhooks/{id}/recover can send it later). Nothing leaves the process here:
// the dispatcher is woken once the transaction is over. Prepared statements, not the query builder:
// this runs for every event the API writes.
import { connectionOf, type Tx } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { subscribes } from './filters.ts'
import { deliveriesQueued } from './signal.ts'

const SUBSCRIBERS = 'SELECT id, events, enabled FROM webhooks WHERE organization_id = ?'
const QUEUE = `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at, created_at)
  VALUES (?, ?, ?, ?, ?, 1, 'event', ?, ?, ?)`

export function fanOut(tx: Tx, event: { id: string; organizationId: string; type: string; now: number }): number {
  const sqlite = connectionOf(tx)
  const subscribers = sqlite.query<{ id: string; events: string; enabled: number }, [string]>(SUBSCRIBERS).all(event.organizationId)
  if (subscribers.length === 0) return 0
  const queue = sqlite.query<unknown, [string, string, string, string, string, string, number | null, number]>(QUEUE)
  let pending = 0
  for (const webhook of subscribers) {
    if (!subscribes(JSON.parse(webhook.events) as string[], event.type)) continue
    const enabled = webhook.enabled === 1
    if (enabled) pending++
    queue.run(prefixedId('dlv'), event.organizationId, webhook.id, event.id, event.type, enabled ? 'pending' : 'skipped', enabled ? event.now : null, event.now)
  }
  if (pending > 0) deliveriesQueued()
  return pending
}
