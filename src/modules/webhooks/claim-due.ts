// claimDue: the dispatcher's claim, inside the caller's write transaction: which webhooks have pending
// deliveries (a skip scan of the per-webhook due indexes, one index seek per such webhook), then, for
// the oldest due first, up to its free slots of its own due rows, read with their targets and leased.
// First attempts for every webhook before any retry, so one dead receiver's retries cannot starve
// the others; and no query walks another webhook's backlog, so a webhook that holds 100,000 due rows
// at its cap costs the others nothing.
import type { Database } from 'bun:sqlite'
import type { DeliveryTarget } from './delivery-target.ts'
import type { ClaimedDelivery } from './record-outcome.ts'

// `attempt = 1` and `attempt > 1` must appear as written: they select the partial indexes
// webhook_deliveries_due_first and webhook_deliveries_due_retry (table.ts).
const KINDS = ['attempt = 1', 'attempt > 1'] as const

// Each webhook with pending rows of the kind, and its oldest next_attempt_at (possibly a row in
// flight, whose lease hides it from the claim below: then that claim finds nothing, cheaply).
const webhooksWithPending = (kind: string) => `WITH RECURSIVE w(id) AS (
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind})
    UNION ALL
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id > w.id) FROM w WHERE w.id IS NOT NULL)
  SELECT id, (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id = w.id) AS due_at
  FROM w WHERE id IS NOT NULL`

// A webhook's own due rows, with what sending them needs (its url and secret, the event's body), then
// leased in one UPDATE by primary key: twice as fast as UPDATE … WHERE id IN (SELECT …) RETURNING.
const ownDue = (kind: string) => `SELECT d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempt, d.trigger, d.created_at, e.body
  FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
  WHERE d.status = 'pending' AND d.${kind} AND d.webhook_id = ?1 AND d.next_attempt_at <= ?2 AND (d.lease_until IS NULL OR d.lease_until < ?2)
  ORDER BY d.next_attempt_at LIMIT ?3`
const WEBHOOK = 'SELECT url, secret_sealed, enabled FROM webhooks WHERE id = ?'
const LEASE = 'UPDATE webhook_deliveries SET lease_until = ?1 WHERE id IN (SELECT value FROM json_each(?2))'

const QUERIES = KINDS.map((kind) => ({ webhooks: webhooksWithPending(kind), due: ownDue(kind) }))

export type DueDelivery = ClaimedDelivery & DeliveryTarget

export interface ClaimLimits {
  /** Deliveries to claim at most, in all. */
  free: number
  /** Deliveries to claim at most for this webhook. */
  freeFor(webhookId: string): number
}

/** Claims up to `limits.free` due deliveries, leased until `leaseUntil` (run it inside a write transaction). */
export function claimDue(sqlite: Database, now: number, leaseUntil: number, limits: ClaimLimits): DueDelivery[] {
  const claimed: DueDelivery[] = []
  const taken = new Map<string, number>()
  for (const query of QUERIES) {
    if (claimed.length >= limits.free) break
    const due = sqlite
      .query<{ id: string; due_at: number }, []>(query.webhooks)
      .all()
      .filter((w) => w.due_at <= now)
      .sort((a, b) => a.due_at - b.due_at)
    const ownDue = sqlite.query<ClaimedDelivery & { body: string }, [string, number, number]>(query.due)
    for (const webhook of due) {
      const room = Math.min(limits.free - claimed.length, limits.freeFor(webhook.id) - (taken.get(webhook.id) ?? 0))
      if (room <= 0) continue
      const rows = ownDue.all(webhook.id, now, room)
      if (rows.length === 0) continue
      // Read once for all its rows; a webhook gone meanwhile has no rows either (they cascade).
      const target = sqlite.query<Omit<DeliveryTarget, 'body'>, [string]>(WEBHOOK).get(webhook.id)
      if (!target) continue
      sqlite.query<unknown, [number, string]>(LEASE).run(leaseUntil, JSON.stringify(rows.map((row) => row.id)))
      for (const row of rows) Object.assign(row, target)
      claimed.push(...(rows as DueDelivery[]))
      taken.set(webhook.id, (taken.get(webhook.id) ?? 0) + rows.length)
      if (claimed.length >= limits.free) break
    }
  }
  return claimed
}
