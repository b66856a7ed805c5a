// The webhooks module's SQL about webhooks themselves: registrations, their failure state, the
// operator's allowed ranges per organization, and who subscribes when an event is written.
import type { Queries, Tx } from '../../../db/database.ts'
import { getInOrg } from '../../../db/get-in-org.ts'
import { AppError } from '../../../errors.ts'
import { defineList } from '../../../db/list.ts'
import type { DisabledReason, WebhooksTable } from '../table.ts'

export type WebhookRow = WebhooksTable

export const WEBHOOK_LIST = defineList('webhooks', { sorts: ['created_at'] })

/** The organization's webhook, or 404 "No such webhook" (another organization's is exactly as missing). */
export async function getWebhookInOrg(db: Queries, organizationId: string, id: string): Promise<WebhookRow> {
  return getInOrg(db, 'webhooks', organizationId, id, 'webhook')
}

// Row locks on PostgreSQL (nothing on SQLite, whose one writer serializes). NO KEY UPDATE, not UPDATE:
// it does not wait for the KEY SHARE that every event's fan-out (and every foreign key check of a new
// delivery) takes on the webhook, so events keep flowing while one webhook is being changed.
const LOCKS = { change: ' FOR NO KEY UPDATE', exist: ' FOR KEY SHARE' } as const

/**
 * The organization's webhook, locked for the rest of the transaction, or 404. `change`: the caller
 * reads then writes its state (enabled, attempts to come), and no other such caller interleaves;
 * `exist`: it only needs the webhook to stay (a delivery row naming it), and a DELETE waits.
 */
export async function lockWebhookInOrg(tx: Tx, organizationId: string, id: string, mode: keyof typeof LOCKS): Promise<WebhookRow> {
  const lock = tx.engine === 'postgres' ? LOCKS[mode] : ''
  const row = await tx.raw.get<WebhookRow>(`SELECT * FROM webhooks WHERE id = ? AND organization_id = ?${lock}`, [id, organizationId])
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook')
  return row
}

export async function countWebhooks(tx: Tx, organizationId: string): Promise<number> {
  const row = await tx.raw.get<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE organization_id = ?', [organizationId])
  return Number(row?.n ?? 0)
}

export async function insertWebhook(tx: Tx, row: WebhookRow): Promise<void> {
  await tx.kysely.insertInto('webhooks').values(row).execute()
}

/** Writes `changes` and returns the row as it is now. */
export async function saveWebhook(tx: Tx, id: string, changes: Partial<Omit<WebhookRow, 'id' | 'organization_id'>>): Promise<WebhookRow> {
  return tx.kysely.updateTable('webhooks').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/**
 * The webhook and its delivery records (pending ones included); false when another transaction deleted
 * it first. Deliveries first, then the webhook: the order the dispatcher's outcomes take (its claimed
 * rows, then the webhook's failure state), so the two never wait for each other in a circle.
 */
export async function deleteWebhookRow(tx: Tx, id: string): Promise<boolean> {
  await tx.raw.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id])
  // The row count says who deleted it: two deletes at once, one 204 and one 404.
  return (await tx.raw.run('DELETE FROM webhooks WHERE id = ?', [id])) === 1
}

/**
 * The organization's webhooks, for the fan-out of one event: runs for every event the API writes. On
 * PostgreSQL each is held FOR KEY SHARE until commit, so a webhook deleted meanwhile either is not read
 * here or waits for this commit: the deliveries written at commit never name a deleted webhook (which
 * the foreign key would refuse, failing the event's whole request). Shares with other events, and with
 * every change but a DELETE.
 */
export function subscribersOf(tx: Tx, organizationId: string): Promise<Array<Pick<WebhookRow, 'id' | 'events' | 'enabled'>>> {
  const lock = tx.engine === 'postgres' ? LOCKS.exist : ''
  return tx.raw.all(`SELECT id, events, enabled FROM webhooks WHERE organization_id = ?${lock}`, [organizationId])
}

export type FailureState = Pick<WebhookRow, 'id' | 'organization_id' | 'enabled' | 'consecutive_failures' | 'failing_since'>

export function markSucceeded(tx: Tx, id: string, now: number): Promise<number> {
  return tx.raw.run('UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL, last_success_at = ? WHERE id = ?', [now, id])
}

// One statement counts the failure and reads the state it leaves (failing since the first failure of
// the run): the row stays locked by this UPDATE until commit, so the decision to disable that follows
// is taken on a state no other transaction can change meanwhile (two dispatchers failing at once).
const MARK_FAILED = `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, ?)
  WHERE id = ? RETURNING id, organization_id, enabled, consecutive_failures, failing_since`

/** Counts a failure; the state after it, or undefined when the webhook is gone. */
export function markFailed(tx: Tx, id: string, now: number): Promise<FailureState | undefined> {
  return tx.raw.get<FailureState>(MARK_FAILED, [now, id])
}

/** Turns the webhook off; false when it was off already (another transaction disabled it first). */
export async function disableWebhookRow(tx: Tx, id: string, reason: DisabledReason, now: number): Promise<boolean> {
  const changed = await tx.raw.run(
    'UPDATE webhooks SET enabled = ?, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = ?',
    [false, reason, now, now, id, true],
  )
  return changed === 1
}

/** webhook_allowed_cidrs.cidrs of the organization (JSON), or null: no row. */
export async function allowedCidrsColumn(db: Queries, organizationId: string): Promise<string | null> {
  const row = await db.raw.get<{ cidrs: string }>('SELECT cidrs FROM webhook_allowed_cidrs WHERE organization_id = ?', [organizationId])
  return row?.cidrs ?? null
}

/** Replaces the organization's list; an empty one removes its row. */
export async function saveAllowedCidrs(tx: Tx, organizationId: string, cidrs: readonly string[], now: number): Promise<void> {
  if (cidrs.length === 0) {
    await tx.raw.run('DELETE FROM webhook_allowed_cidrs WHERE organization_id = ?', [organizationId])
    return
  }
  const row = { organization_id: organizationId, cidrs: JSON.stringify(cidrs), updated_at: now }
  await tx.kysely
    .insertInto('webhook_allowed_cidrs')
    .values(row)
    .onConflict((conflict) => conflict.column('organization_id').doUpdateSet({ cidrs: row.cidrs, updated_at: now }))
    .execute()
}
