// The subscriptions' SQL: one row by id, an organization's current one (its row without ended_at),
// insert and save, and the cron loop's probes (renewals due, incomplete ones to expire).
import type { Queries, Tx } from '../../../db/database.ts'
import type { SubscriptionsTable } from '../table.ts'

export type SubscriptionRow = SubscriptionsTable

/** The row as the engines hand it back, with its boolean a boolean (SQLite says 0 or 1). */
function rowOf(row: SubscriptionRow | undefined): SubscriptionRow | undefined {
  return row && { ...row, cancel_at_period_end: Boolean(row.cancel_at_period_end) }
}

export async function findSubscriptionById(db: Queries, id: string): Promise<SubscriptionRow | undefined> {
  return rowOf(await db.raw.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?', [id]))
}

/** The organization's current subscription (the one not ended), if any. */
export async function findCurrentSubscription(db: Queries, organizationId: string): Promise<SubscriptionRow | undefined> {
  return rowOf(
    await db.raw.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE organization_id = ? AND ended_at IS NULL', [organizationId]),
  )
}

/**
 * The row under its lock (PostgreSQL FOR UPDATE) until the transaction ends: every writer of a
 * subscription saves the whole row it read, so it reads it so, and a concurrent writer waits and then
 * reads what this one saved (no change lost, no status moved twice).
 */
export async function lockSubscription(tx: Tx, id: string): Promise<SubscriptionRow | undefined> {
  return rowOf(await tx.raw.get<SubscriptionRow>(`SELECT * FROM subscriptions WHERE id = ?${tx.forUpdate}`, [id]))
}

/** The organization's current subscription under its row lock (as lockSubscription); one ended meanwhile is not found. */
export async function lockCurrentSubscription(tx: Tx, organizationId: string): Promise<SubscriptionRow | undefined> {
  return rowOf(
    await tx.raw.get<SubscriptionRow>(`SELECT * FROM subscriptions WHERE organization_id = ? AND ended_at IS NULL${tx.forUpdate}`, [
      organizationId,
    ]),
  )
}

export async function insertSubscription(tx: Tx, row: SubscriptionRow): Promise<void> {
  await tx.kysely.insertInto('subscriptions').values(row).execute()
}

export async function saveSubscription(tx: Tx, row: SubscriptionRow): Promise<void> {
  const { id, organization_id, created_at, ...columns } = row
  await tx.kysely.updateTable('subscriptions').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

/** Statuses whose period end the renewal task acts on (cancel at period end, trial end, renewal). */
const RENEWING = "('trialing', 'active', 'past_due')"

/** Current subscriptions whose period ended by `now`, oldest first (the partial index on current_period_end). */
export async function renewalsDue(db: Queries, now: number, limit: number): Promise<SubscriptionRow[]> {
  const rows = await db.raw.all<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE ended_at IS NULL AND current_period_end <= ? AND status IN ${RENEWING} ORDER BY current_period_end, id LIMIT ?`,
    [now, limit],
  )
  return rows.map((row) => rowOf(row)!)
}

/** Incomplete subscriptions created at or before `before` (one current row per organization is scanned at most). */
export async function incompleteCreatedBefore(db: Queries, before: number, limit: number): Promise<SubscriptionRow[]> {
  const rows = await db.raw.all<SubscriptionRow>(
    "SELECT * FROM subscriptions WHERE ended_at IS NULL AND status = 'incomplete' AND created_at <= ? ORDER BY created_at, id LIMIT ?",
    [before, limit],
  )
  return rows.map((row) => rowOf(row)!)
}
