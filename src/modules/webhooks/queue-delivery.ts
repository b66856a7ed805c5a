// Delivery rows to come (attempts not yet made), as the fan-out of an event, the next attempt after a
// failure, a recovery and a manual send write them in the caller's transaction; and the lease a claim holds.
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { insertDelivery, type NewDeliveryRow } from './store/deliveries.ts'
import type { ClaimedDelivery } from './store/dispatch.ts'
import type { DeliveryTrigger } from './table.ts'

export interface NewDelivery {
  organizationId: string
  webhookId: string
  eventId: string
  eventType: string
  attempt: number
  trigger: DeliveryTrigger
  /** Pending: due at `nextAttemptAt`; skipped: its webhook is off, kept for recovery. */
  status: 'pending' | 'skipped'
  nextAttemptAt: number | null
  /** Already claimed by whoever writes it (a manual send), until then. */
  leaseUntil?: number
  now: number
}

/** The row of a new delivery, with its id. */
export function deliveryRow(d: NewDelivery): NewDeliveryRow {
  return {
    id: prefixedId('dlv'),
    organization_id: d.organizationId,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType,
    attempt: d.attempt,
    trigger: d.trigger,
    status: d.status,
    next_attempt_at: d.nextAttemptAt,
    lease_until: d.leaseUntil ?? null,
    created_at: d.now,
  }
}

/** Inserts one delivery; returns it as a claim would. */
export async function queueDelivery(tx: Tx, d: NewDelivery): Promise<ClaimedDelivery> {
  const row = deliveryRow(d)
  await insertDelivery(tx, row)
  const { id, organization_id, webhook_id, event_id, event_type, attempt, trigger, created_at } = row
  return { id, organization_id, webhook_id, event_id, event_type, attempt, trigger, created_at }
}

/** A claim must outlast a send that starts at its very end: twice the timeout, and some. */
export function claimLeaseUntil(timeoutMs: number, now: number): number {
  return now + 2 * timeoutMs + 5_000
}
