// Setting a price: a new row (prices never change) that replaces the active one of the same plan,
// owner, currency and interval, which gets deactivated_at. In the caller's transaction, audited in the
// installation's chain (a public price) or the organization's (its own Enterprise price).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import type { PlanId } from '../table.ts'
import { priceJson } from './plan-json.ts'
import type { CheckedPrice } from './price-input.ts'
import { deactivatePriceRow, findActivePrice, insertPriceRow, type PriceRow } from './store.ts'

/**
 * Makes `price` the active price of `plan` for its owner (`organizationId` null: every organization).
 * `keepSame`: an active price of the same amount stays as it is (no new row), as a PUT replayed changes nothing.
 */
export async function replacePriceInTx(
  tx: Tx,
  ctx: Ctx,
  input: { plan: PlanId; organizationId: string | null; price: CheckedPrice; keepSame: boolean; now: number },
): Promise<PriceRow> {
  const { plan, organizationId, price, now } = input
  // One replacement of a plan, owner, currency and interval at a time (a keyed lock: the row to replace
  // may not exist yet): each replaces the one before it, none fails on the partial unique index.
  await tx.lock(`plan-price:${plan}:${organizationId ?? '*'}:${price.currency}:${price.interval}`)
  const active = await findActivePrice(tx, { plan, organizationId, currency: price.currency, interval: price.interval })
  if (active && input.keepSame && Number(active.unit_amount) === price.unitAmount) return active
  if (active) await deactivatePriceRow(tx, active.id, now)
  const row: PriceRow = {
    id: prefixedId('price'),
    plan_id: plan,
    organization_id: organizationId,
    currency: price.currency,
    billing_interval: price.interval,
    unit_amount: price.unitAmount,
    created_at: now,
    deactivated_at: null,
  }
  await insertPriceRow(tx, row)
  await appendAudit(tx, {
    organizationId,
    actor: auditActorOf(ctx.actor),
    event: 'plan_price.created',
    target: { type: 'plan_price', id: row.id },
    details: { price: priceJson(row), replaced: active?.id ?? null },
    now,
  })
  return row
}

/** Withdraws an active price (subscriptions already on it keep it); audited like its creation. */
export async function deactivatePriceInTx(tx: Tx, ctx: Ctx, price: PriceRow, now: number): Promise<PriceRow | undefined> {
  const row = await deactivatePriceRow(tx, price.id, now)
  if (!row) return undefined
  await appendAudit(tx, {
    organizationId: row.organization_id,
    actor: auditActorOf(ctx.actor),
    event: 'plan_price.deactivated',
    target: { type: 'plan_price', id: row.id },
    details: { price: priceJson(row) },
    now,
  })
  return row
}
