// claimDue: the dispatcher's claim, inside the caller's write transaction: which webhooks have pending
// deliveries (a skip scan of the per-webhook due indexes, one index seek per such webhook), then, for
// the oldest due first, up to its free slots of its own due rows, read with their targets and leased.
// First attempts for every webhook before any retry, so one dead receiver's retries cannot starve
// the others; and no query walks another webhook's backlog, so a webhook that holds 100,000 due rows
// at its cap costs the others nothing.
import type { Database } from 'bun:sqlite'
import type { DeliveryTarget } from './delivery-target.ts'
import { EventBodies } from './event-bodies.ts'
import type { ClaimedDelivery } from './record-outcome.ts'

// `attempt = 1` and `attempt > 1` must appear as written: they select the partial indexes
// webhook_deliveries_due_first and webhook_deliveries_due_retry (table.ts).
const KINDS = ['attempt = 1', 'attempt > 1'] as const

// Each webhook with pending rows of the kind, with its url, secret and organization's allowed ranges
// (read at every claim, so the operator's change applies to the next one), and its oldest next_attempt_at
// (possibly a row in flight, whose lease hides it from the claim below: then that finds nothing, cheaply).
const webhooksWithPending = (kind: string) => `WITH RECURSIVE w(id) AS (
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind})
    UNION ALL
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id > w.id) FROM w WHERE w.id IS NOT NULL)
  SELECT w.id, h.url, h.secret_sealed, h.enabled, a.cidrs AS allowed_cidrs,
    (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id = w.id) AS due_at
  FROM w JOIN webhooks h ON h.id = w.id LEFT JOIN webhook_allowed_cidrs a ON a.organization_id = h.organization_id`

// A webhook's own due rows; the events' bodies and the lease come after, once for all webhooks.
const ownDue = (kind: string) => `SELECT d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempt, d.trigger, d.created_at
  FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.${kind} AND d.webhook_id = ?1 AND d.next_attempt_at <= ?2 AND (d.lease_until IS NULL OR d.lease_until < ?2)
  ORDER BY d.next_attempt_at LIMIT ?3`
// Leased by primary key, all in one: twice as fast as UPDATE … WHERE id IN (SELECT …) RETURNING.
// INDEXED BY: rows by primary key whatever the planner's statistics say (ones taken while the table was
// tiny can make it prefer a scan of every delivery). The name is SQLite's for a TEXT PRIMARY KEY.
export const LEASE = 'UPDATE webhook_deliveries INDEXED BY sqlite_autoindex_webhook_deliveries_1 SET lease_until = ?1 WHERE id IN (SELECT value FROM json_each(?2))'

const QUERIES = KINDS.map((kind) => ({ webhooks: webhooksWithPending(kind), due: ownDue(kind) }))

export type DueDelivery = ClaimedDelivery & DeliveryTarget

export interface ClaimLimits {
  /** Deliveries to claim at most, in all. */
  free: number
  /** Deliveries to claim at most for this webhook. */
  freeFor(webhookId: string): number
}

/** Claims up to `limits.free` due deliveries, leased until `leaseUntil` (run it inside a write transaction). */
export function claimDue(sqlite: Database, now: number, leaseUntil: number, limits: ClaimLimits, bodies = new EventBodies()): DueDelivery[] {
  const due: Array<ClaimedDelivery & Omit<DeliveryTarget, 'body'>> = []
  const taken = new Map<string, number>()
  for (const query of QUERIES) {
    if (due.length >= limits.free) break
    const waiting = sqlite
      .query<Omit<DeliveryTarget, 'body'> & { id: string; due_at: number }, []>(query.webhooks)
      .all()
      .filter((w) => w.due_at <= now)
      .sort((a, b) => a.due_at - b.due_at)
    const ownDue = sqlite.query<ClaimedDelivery, [string, number, number]>(query.due)
    for (const webhook of waiting) {
      const room = Math.min(limits.free - due.length, limits.freeFor(webhook.id) - (taken.get(webhook.id) ?? 0))
      if (room <= 0) continue
      const target = { url: webhook.url, secret_sealed: webhook.secret_sealed, enabled: webhook.enabled, allowed_cidrs: webhook.allowed_cidrs }
      const rows = ownDue.all(webhook.id, now, room)
      for (const row of rows) due.push(Object.assign(row, target))
      taken.set(webhook.id, (taken.get(webhook.id) ?? 0) + rows.length)
      if (due.length >= limits.free) break
    }
  }
  if (due.length === 0) return []
  const claimed = bodies.fill(sqlite, due)
  sqlite.query<unknown, [number, string]>(LEASE).run(leaseUntil, JSON.stringify(claimed.map((row) => row.id)))
  return claimed
}
