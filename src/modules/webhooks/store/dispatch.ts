// The dispatcher's SQL: the claim (a skip scan of the per-webhook due indexes, then each webhook's own
// due rows, leased), the event bodies of what it claimed, and claims skipped or given back (outcomes are
// in deliveries.ts and webhooks.ts). Raw statements only: this runs for every delivery, and building a
// query would cost more than running it.
import type { Queries, Tx } from '../../../db/database.ts'
import type { WebhookDeliveriesTable, WebhooksTable } from '../table.ts'

/** A delivery as a claim (or a manual send) hands it to a sender. */
export type ClaimedDelivery = Pick<
  WebhookDeliveriesTable,
  'id' | 'organization_id' | 'webhook_id' | 'event_id' | 'event_type' | 'attempt' | 'trigger' | 'created_at'
>

/** What a delivery is sent to and with; the body is the stored envelope, the exact bytes of every attempt. */
export interface DeliveryTarget {
  url: string
  secret_sealed: string
  enabled: WebhooksTable['enabled']
  /** webhook_allowed_cidrs.cidrs of the organization (JSON), or null: public addresses only. */
  allowed_cidrs: string | null
  body: string
}

export type DueDelivery = ClaimedDelivery & DeliveryTarget

// Statements over a list of ids: `id IN (?, ?, …)`, the list padded to a power of two (repeating its
// last id, which changes nothing) so that a handful of statement texts serve every count and stay in
// the statement cache; at most MAX_IDS ids a statement.
const MAX_IDS = 256

const MARKS: string[] = []

/** `?, ?, …`: `count` placeholders. */
export function marks(count: number): string {
  return (MARKS[count] ??= Array.from({ length: count }, () => '?').join(', '))
}

async function forIdChunks(ids: readonly string[], run: (marks: string, chunk: string[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < ids.length; start += MAX_IDS) {
    const chunk = ids.slice(start, start + MAX_IDS)
    let size = 1
    while (size < chunk.length) size *= 2
    while (chunk.length < size) chunk.push(chunk.at(-1)!)
    await run(marks(size), chunk)
  }
}

/**
 * The updates by lists of primary keys (the query-plan test checks that each stays an index lookup).
 * Portable: an explicit list, not SQLite's json_each nor PostgreSQL's `= ANY(?)`.
 */
export const BY_ID = {
  lease: (list: string) => `UPDATE webhook_deliveries SET lease_until = ? WHERE id IN (${list})`,
  skip: (list: string) =>
    `UPDATE webhook_deliveries SET status = 'skipped', lease_until = NULL, next_attempt_at = NULL WHERE id IN (${list}) AND status = 'pending'`,
  release: (list: string) => `UPDATE webhook_deliveries SET lease_until = NULL WHERE id IN (${list})`,
}

// `attempt = 1` and `attempt > 1` must appear as written: they select the partial indexes
// webhook_deliveries_due_first and webhook_deliveries_due_retry (table.ts).
export const CLAIM_KINDS = ['attempt = 1', 'attempt > 1'] as const
export type ClaimKind = (typeof CLAIM_KINDS)[number]

// Each webhook with pending rows of the kind, one index seek per webhook (a loose index scan), with
// its url, secret and organization's allowed ranges (read at every claim, so the operator's change
// applies to the next one), and its oldest next_attempt_at (possibly a row in flight, whose lease hides
// it from the claim: then that finds nothing, cheaply).
const webhooksWithPending = (kind: ClaimKind) => `WITH RECURSIVE w(id) AS (
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind})
    UNION ALL
    SELECT (SELECT min(webhook_id) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id > w.id) FROM w WHERE w.id IS NOT NULL)
  SELECT w.id, h.url, h.secret_sealed, h.enabled, a.cidrs AS allowed_cidrs,
    (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending' AND ${kind} AND webhook_id = w.id) AS due_at
  FROM w JOIN webhooks h ON h.id = w.id LEFT JOIN webhook_allowed_cidrs a ON a.organization_id = h.organization_id`

// One webhook's own due rows, oldest first, passing over those leased already.
const ownDue = (
  kind: ClaimKind,
) => `SELECT d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempt, d.trigger, d.created_at
  FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.${kind} AND d.webhook_id = ? AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
  ORDER BY d.next_attempt_at LIMIT ?`

// PostgreSQL: rows another transaction holds are passed over, not waited for (SQLite has no row locks:
// the writer lock of the caller's transaction keeps claims apart there).
const STATEMENTS = Object.fromEntries(
  CLAIM_KINDS.map((kind) => [
    kind,
    { webhooks: webhooksWithPending(kind), due: ownDue(kind), dueLocked: `${ownDue(kind)} FOR UPDATE SKIP LOCKED` },
  ]),
) as Record<ClaimKind, { webhooks: string; due: string; dueLocked: string }>

export type WaitingWebhook = Omit<DeliveryTarget, 'body'> & { id: string; due_at: number }

/** The webhooks with pending deliveries of `kind`, each with its target and its oldest due time. */
export async function webhooksWithDue(tx: Tx, kind: ClaimKind): Promise<WaitingWebhook[]> {
  const rows = await tx.raw.all<WaitingWebhook>(STATEMENTS[kind].webhooks)
  for (const row of rows) row.due_at = Number(row.due_at)
  return rows
}

/**
 * THE claim statement: up to `limit` of one webhook's due rows not leased by anyone. On PostgreSQL it
 * is `… FOR UPDATE SKIP LOCKED`, so two instances never take the same rows even if their claims run at
 * once (today the engine's cluster-wide writer lock serializes them as well); on SQLite the writer lock
 * the caller's transaction holds does that.
 */
export function dueRowsOf(tx: Tx, kind: ClaimKind, webhookId: string, now: number, limit: number): Promise<ClaimedDelivery[]> {
  return tx.raw.all<ClaimedDelivery>(claimStatement(kind, tx.engine), [webhookId, now, now, limit])
}

/** The claim statement on `engine`. */
export function claimStatement(kind: ClaimKind, engine: Tx['engine']): string {
  return engine === 'postgres' ? STATEMENTS[kind].dueLocked : STATEMENTS[kind].due
}

/** Leases claimed rows until `leaseUntil`, by primary key. */
export async function leaseDeliveries(tx: Tx, ids: readonly string[], leaseUntil: number): Promise<void> {
  await forIdChunks(ids, (list, chunk) => tx.raw.run(BY_ID.lease(list), [leaseUntil, ...chunk]))
}

/** Extends the lease of one claimed row (it waited long in the ready queue). */
export function extendLease(db: Queries, id: string, leaseUntil: number): Promise<number> {
  return db.raw.run('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?', [leaseUntil, id])
}

/**
 * One event's stored envelope. One statement per event, not a list: with statistics of a tiny events
 * table SQLite plans `id IN (?, ?)` as a scan of the table (query-plans.test.ts), never an equality on
 * the key; and each event is read once for all its deliveries (event-bodies.ts).
 */
export const EVENT_BODY = 'SELECT body FROM events WHERE id = ?'

export async function eventBody(db: Queries, eventId: string): Promise<string | undefined> {
  return (await db.raw.get<{ body: string }>(EVENT_BODY, [eventId]))?.body
}

/** Several events' envelopes by primary key: PostgreSQL's planner seeks each key (query-plans-postgres.test.ts). */
export const EVENT_BODIES = (list: string) => `SELECT id, body FROM events WHERE id IN (${list})`

/**
 * The stored envelopes of `eventIds` (those that exist). SQLite: EVENT_BODY once per event, a few µs each;
 * PostgreSQL, where each statement is a round trip under the writer lock: one statement per MAX_IDS events.
 */
export async function eventBodies(db: Queries, eventIds: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (db.engine === 'sqlite') {
    for (const id of eventIds) {
      const body = await eventBody(db, id)
      if (body !== undefined) found.set(id, body)
    }
    return found
  }
  await forIdChunks(eventIds, async (list, chunk) => {
    for (const row of await db.raw.all<{ id: string; body: string }>(EVENT_BODIES(list), chunk)) found.set(row.id, row.body)
  })
  return found
}

/** Claimed deliveries of a disabled webhook: not sent, kept as skipped for POST /webhooks/{id}/recover. */
export async function skipDeliveries(db: Queries, ids: readonly string[]): Promise<void> {
  await forIdChunks(ids, (list, chunk) => db.raw.run(BY_ID.skip(list), chunk))
}

/** Gives claims back unsent: due again at once, for whoever claims next. */
export async function releaseClaims(db: Queries, ids: readonly string[]): Promise<void> {
  await forIdChunks(ids, (list, chunk) => db.raw.run(BY_ID.release(list), chunk))
}
