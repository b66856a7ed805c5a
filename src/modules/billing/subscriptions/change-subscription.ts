// A change of the current subscription. Its plan, price, seats or interval (trialing, active or
// past_due only): during a trial they are swapped; otherwise prorated as Stripe's always_invoice — an
// invoice (subscription_update) crediting the unused part of the old price × quantity and charging the
// rest of the period on the new one, finalized here and collected after commit (a negative total pays
// what is still owed for the period first, the rest becomes credit: invoices/credit.ts). An interval
// change starts a new period now: credit for the unused old, the full new period charged. Price ×
// quantity is bounded (fields.ts). The payment method, collection method and metadata change in any
// current status.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { periodEnd } from '../money.ts'
import { recordSubscriptionEvent } from './events.ts'
import { checkPeriodAmount, collectionMethodOf, mergedMetadata, resolvePrice, type SubscribeInput } from './fields.ts'
import { billedOf, invoiceSubscriptionInTx, type IssuedInvoice } from './invoicing.ts'
import { CHANGEABLE_STATUSES } from './lifecycle.ts'
import { fullPeriodStart, periodLine, remainingChargeLine, unusedCreditLine } from './lines.ts'
import { type SubscriptionRow, saveSubscription } from './store.ts'

const HINT: Partial<Record<SubscriptionRow['status'], string>> = {
  incomplete: 'pay its first invoice, or cancel it',
  paused: 'resume it first',
  unpaid: 'pay its latest invoice first, or cancel it',
}

/** The price after the change: the current one when plan, interval and currency stay (even if since replaced). */
async function priceAfter(tx: Tx, row: SubscriptionRow, input: SubscribeInput) {
  const plan = input.plan ?? row.plan_id
  const interval = input.interval ?? (input.price_id === undefined ? row.billing_interval : undefined)
  const currency = input.currency ?? (input.price_id === undefined ? row.currency : undefined)
  const same =
    input.price_id === undefined
      ? plan === row.plan_id && interval === row.billing_interval && currency?.toLowerCase() === row.currency
      : input.price_id === row.price_id
  if (same)
    return {
      id: row.price_id,
      plan_id: row.plan_id,
      currency: row.currency,
      billing_interval: row.billing_interval,
      unit_amount: row.unit_amount,
    }
  const price = await resolvePrice(tx, row.organization_id, { plan, interval, currency, priceId: input.price_id })
  if (price.currency !== row.currency)
    throw validationError([
      {
        field: 'currency',
        message: `the subscription is billed in ${row.currency}: a new currency needs a new subscription (cancel this one first)`,
      },
    ])
  return price
}

export async function changeSubscriptionInTx(
  tx: Tx,
  ctx: Ctx,
  row: SubscriptionRow,
  input: SubscribeInput,
  now: number,
): Promise<{ row: SubscriptionRow; issued: IssuedInvoice | null }> {
  if (input.trial_days !== undefined || input.billing_cycle_anchor !== undefined)
    throw validationError([
      { field: input.trial_days !== undefined ? 'trial_days' : 'billing_cycle_anchor', message: 'applies only when subscribing' },
    ])
  const price = await priceAfter(tx, row, input)
  const quantity = input.quantity ?? Number(row.quantity)
  const billable = price.id !== row.price_id || quantity !== Number(row.quantity)
  if (billable && !CHANGEABLE_STATUSES.includes(row.status))
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `A ${row.status} subscription cannot change its plan, price or quantity: ${HINT[row.status] ?? 'it has ended'}`,
    )
  if (billable) checkPeriodAmount(Number(price.unit_amount), quantity)
  const next: SubscriptionRow = {
    ...row,
    plan_id: price.plan_id,
    price_id: price.id,
    billing_interval: price.billing_interval,
    unit_amount: Number(price.unit_amount),
    quantity,
    collection_method:
      input.collection_method === undefined ? row.collection_method : collectionMethodOf(ctx.config, input.collection_method),
    default_payment_method_id:
      input.default_payment_method_id === undefined ? row.default_payment_method_id : input.default_payment_method_id,
    metadata: mergedMetadata(row.metadata, input.metadata),
    updated_at: now,
  }
  if (!billable || row.status === 'trialing') {
    const changed = (Object.keys(next) as (keyof SubscriptionRow)[]).some((key) => key !== 'updated_at' && next[key] !== row[key])
    if (!changed) return { row, issued: null }
    await saveSubscription(tx, next)
    await recordSubscriptionEvent(tx, ctx, 'subscription.updated', next, now)
    return { row: next, issued: null }
  }
  const end = Number(row.current_period_end)
  const full = fullPeriodStart({
    start: Number(row.current_period_start),
    end,
    anchor: Number(row.billing_cycle_anchor),
    interval: row.billing_interval,
  })
  const credit = unusedCreditLine(await billedOf(tx, row), now, end, full)
  const billed = await billedOf(tx, next)
  let lines = [credit, remainingChargeLine(billed, now, end, full)]
  let periodEndAt = end
  if (next.billing_interval !== row.billing_interval) {
    periodEndAt = periodEnd(now, next.billing_interval, 1)
    Object.assign(next, { current_period_start: now, current_period_end: periodEndAt, billing_cycle_anchor: now })
    lines = [credit, periodLine(billed, now, periodEndAt)]
  }
  const issued = await invoiceSubscriptionInTx(tx, ctx, next, {
    event: 'subscription.updated',
    billingReason: 'subscription_update',
    lines,
    periodStart: now,
    periodEnd: periodEndAt,
    now,
  })
  return { row: issued.subscription, issued }
}
