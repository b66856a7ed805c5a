// A new subscription (the organization has no current one). With a trial: trialing, no invoice until
// the trial ends (which anchors the cycle). Otherwise its first invoice (subscription_create: the first
// period, prorated when billing_cycle_anchor shortens it) is drafted and finalized here: send_invoice
// makes it active at once (the invoice open until its due date), charge_automatically leaves it
// incomplete until that invoice is paid (collected after commit).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { validationError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { periodEnd } from '../money.ts'
import { recordSubscriptionEvent } from './events.ts'
import { anchorOf, checkPeriodAmount, collectionMethodOf, mergedMetadata, resolvePrice, type SubscribeInput } from './fields.ts'
import { billedOf, invoiceSubscriptionInTx, type IssuedInvoice } from './invoicing.ts'
import { fullPeriodStart, periodLine } from './lines.ts'
import { insertSubscription, type SubscriptionRow } from './store.ts'

const DAY_MS = 86_400_000

export async function createSubscriptionInTx(
  tx: Tx,
  ctx: Ctx,
  organizationId: string,
  input: SubscribeInput,
  now: number,
): Promise<{ row: SubscriptionRow; issued: IssuedInvoice | null }> {
  if (input.plan === undefined) throw validationError([{ field: 'plan', message: 'is required to subscribe' }])
  if (input.trial_days !== undefined && input.billing_cycle_anchor !== undefined)
    throw validationError([
      { field: 'billing_cycle_anchor', message: "cannot be given with trial_days: the trial's end anchors the cycle" },
    ])
  const price = await resolvePrice(tx, organizationId, {
    plan: input.plan,
    currency: input.currency,
    priceId: input.price_id,
    interval: input.interval ?? (input.price_id === undefined ? 'month' : undefined),
  })
  checkPeriodAmount(Number(price.unit_amount), input.quantity ?? 1)
  const interval = price.billing_interval
  const collection = collectionMethodOf(ctx.config, input.collection_method)
  const trialEnd = input.trial_days === undefined ? null : now + input.trial_days * DAY_MS
  const anchor = trialEnd ?? (input.billing_cycle_anchor === undefined ? now : anchorOf(input.billing_cycle_anchor, now, interval))
  const end = trialEnd ?? (anchor === now ? periodEnd(now, interval, 1) : anchor)
  const row: SubscriptionRow = {
    id: prefixedId('sub'),
    organization_id: organizationId,
    plan_id: price.plan_id,
    price_id: price.id,
    currency: price.currency,
    billing_interval: interval,
    unit_amount: Number(price.unit_amount),
    quantity: input.quantity ?? 1,
    status: trialEnd !== null ? 'trialing' : collection === 'send_invoice' ? 'active' : 'incomplete',
    collection_method: collection,
    current_period_start: now,
    current_period_end: end,
    billing_cycle_anchor: anchor,
    trial_start: trialEnd === null ? null : now,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    cancellation_reason: null,
    default_payment_method_id: input.default_payment_method_id ?? null,
    latest_invoice_id: null,
    past_due_since: null,
    metadata: mergedMetadata('{}', input.metadata),
    created_at: now,
    updated_at: now,
  }
  await insertSubscription(tx, row)
  if (trialEnd !== null) {
    await recordSubscriptionEvent(tx, ctx, 'subscription.created', row, now)
    return { row, issued: null }
  }
  const full = fullPeriodStart({ start: now, end, anchor, interval })
  const issued = await invoiceSubscriptionInTx(tx, ctx, row, {
    event: 'subscription.created',
    billingReason: 'subscription_create',
    lines: [periodLine(await billedOf(tx, row), now, end, full)],
    periodStart: now,
    periodEnd: end,
    now,
  })
  return { row: issued.subscription, issued }
}
