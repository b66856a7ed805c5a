// The webhooks module's SQL about webhooks themselves: registrations, their failure state, the
// operator's allowed ranges per organization, and who subscribes when an event is written.
import type { Queries, Tx } from '../../../db/database.ts'
import { getInOrg } from '../../../db/get-in-org.ts'
import { defineList } from '../../../db/list.ts'
import type { DisabledReason, WebhooksTable } from '../table.ts'

export type WebhookRow = WebhooksTable

export const WEBHOOK_LIST = defineList('webhooks', { sorts: ['created_at'] })

/** The organization's webhook, or 404 "No such webhook" (another organization's is exactly as missing). */
export async function getWebhookInOrg(db: Queries, organizationId: string, id: string): Promise<WebhookRow> {
  return getInOrg(db, 'webhooks', organizationId, id, 'webhook')
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

/** The webhook and its delivery records (pending ones included). */
export async function deleteWebhookRow(tx: Tx, id: string): Promise<void> {
  await tx.raw.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id])
  await tx.raw.run('DELETE FROM webhooks WHERE id = ?', [id])
}

/** The organization's webhooks, for the fan-out of one event: runs for every event the API writes. */
export function subscribersOf(tx: Tx, organizationId: string): Promise<Array<Pick<WebhookRow, 'id' | 'events' | 'enabled'>>> {
  return tx.raw.all('SELECT id, events, enabled FROM webhooks WHERE organization_id = ?', [organizationId])
}

export type FailureState = Pick<WebhookRow, 'id' | 'organization_id' | 'enabled' | 'consecutive_failures' | 'failing_since'>

export function failureStateOf(tx: Tx, id: string): Promise<FailureState | undefined> {
  return tx.raw.get<FailureState>('SELECT id, organization_id, enabled, consecutive_failures, failing_since FROM webhooks WHERE id = ?', [
    id,
  ])
}

export function markSucceeded(tx: Tx, id: string, now: number): Promise<number> {
  return tx.raw.run('UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL, last_success_at = ? WHERE id = ?', [now, id])
}

export function markFailed(tx: Tx, id: string, failingSince: number): Promise<number> {
  return tx.raw.run('UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, failing_since = ? WHERE id = ?', [
    failingSince,
    id,
  ])
}

export async function disableWebhookRow(tx: Tx, id: string, reason: DisabledReason, now: number): Promise<void> {
  await tx.raw.run('UPDATE webhooks SET enabled = ?, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ?', [
    false,
    reason,
    now,
    now,
    id,
  ])
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
