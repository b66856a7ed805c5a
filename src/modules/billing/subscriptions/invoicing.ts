// A subscription's invoice, inside the caller's transaction: drafted with its lines, made the
// subscription's latest invoice (with the event the caller names), then finalized — which may pay it
// at once (nothing due) and so move the subscription through the hooks. Collection comes after
// commit (collectLatest): Stripe is never called inside a transaction.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { createDraftInvoiceInTx, finalizeInvoiceInTx, type InvoiceRow, type NewInvoiceLine } from '../invoices/collect.ts'
import { collectInvoice } from '../payments/collect.ts'
import { findPlanRow } from '../plans/store.ts'
import type { BillingReason } from '../table.ts'
import { recordSubscriptionEvent, type SubscriptionEventType } from './events.ts'
import type { Billed } from './lines.ts'
import { findSubscriptionById, type SubscriptionRow, saveSubscription } from './store.ts'

/** What the subscription is billed for now (its plan's name read for the lines' descriptions). */
export async function billedOf(tx: Tx, row: SubscriptionRow): Promise<Billed> {
  const plan = await findPlanRow(tx, row.plan_id)
  return {
    plan: row.plan_id,
    planName: plan?.name ?? row.plan_id,
    priceId: row.price_id,
    unitAmount: Number(row.unit_amount),
    quantity: Number(row.quantity),
  }
}

export interface IssuedInvoice {
  invoice: InvoiceRow
  /** The subscription as it is after finalization (a hook may have moved it). */
  subscription: SubscriptionRow
}

/**
 * Saves `row` (already moved: new period, status…) with the new invoice as its latest, records `event`
 * (the subscription as saved), then finalizes the invoice.
 */
export async function invoiceSubscriptionInTx(
  tx: Tx,
  ctx: Ctx,
  row: SubscriptionRow,
  input: {
    event: SubscriptionEventType
    billingReason: BillingReason
    lines: NewInvoiceLine[]
    periodStart: number
    periodEnd: number
    now: number
  },
): Promise<IssuedInvoice> {
  const { now } = input
  const draft = await createDraftInvoiceInTx(tx, ctx, {
    organizationId: row.organization_id,
    subscriptionId: row.id,
    billingReason: input.billingReason,
    collectionMethod: row.collection_method,
    currency: row.currency,
    lines: input.lines,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    now,
  })
  const saved: SubscriptionRow = { ...row, latest_invoice_id: draft.id, updated_at: now }
  await saveSubscription(tx, saved)
  await recordSubscriptionEvent(tx, ctx, input.event, saved, now)
  const invoice = await finalizeInvoiceInTx(tx, ctx, draft.id, now)
  return { invoice, subscription: (await findSubscriptionById(tx, row.id))! }
}

/** After commit: charges the invoice when it is open, has something due and is charged automatically. */
export async function collectIssued(ctx: Ctx, issued: IssuedInvoice | null): Promise<void> {
  if (!issued) return
  const { invoice, subscription } = issued
  if (invoice.status !== 'open' || Number(invoice.amount_due) <= 0 || invoice.collection_method !== 'charge_automatically') return
  try {
    await collectInvoice(ctx, { invoiceId: invoice.id, paymentMethodId: subscription.default_payment_method_id })
  } catch (error) {
    // Committed already: the invoice stays open with its attempt due, and the dunning task tries again.
    ctx.log.warn('billing: collecting an invoice failed; the dunning task retries it', { invoice_id: invoice.id, error: String(error) })
  }
}
