// queueDelivery: writes one delivery row (an attempt to come) with a prepared statement, inside the
// caller's transaction: the one insert behind the fan-out of every event, the next attempt after a
// failure, recovery and manual sends. Also the lease a claim holds.
import type { Database } from 'bun:sqlite'
import { prefixedId } from '../../lib/ids.ts'
import type { ClaimedDelivery } from './record-outcome.ts'
import type { DeliveryTrigger } from './table.ts'

const INSERT = `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at, lease_until, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

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

/** Inserts the row; returns it as a claim would. */
export function queueDelivery(sqlite: Database, d: NewDelivery): ClaimedDelivery {
  const id = prefixedId('dlv')
  sqlite
    .query(INSERT)
    .run(id, d.organizationId, d.webhookId, d.eventId, d.eventType, d.attempt, d.trigger, d.status, d.nextAttemptAt, d.leaseUntil ?? null, d.now)
  return { id, organization_id: d.organizationId, webhook_id: d.webhookId, event_id: d.eventId, event_type: d.eventType, attempt: d.attempt, trigger: d.trigger, created_at: d.now }
}

/** A claim must outlast a send that starts at its very end: twice the timeout, and some. */
export function claimLeaseUntil(timeoutMs: number, now: number): number {
  return now + 2 * timeoutMs + 5_000
}
