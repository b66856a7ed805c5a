// Collecting an invoice by card through Stripe, off any transaction: the invoice's one payment (made on
// its first collection, retried in place) is claimed `processing` in a transaction, Stripe is called
// (a PaymentIntent created and confirmed off-session, idempotency key `<payment id>-<attempt>`), and the
// outcome is applied in a second transaction. A collection that never heard back stays processing; after
// PROCESSING_STALE_MS the next one takes it over with the same key, so Stripe answers as the first time.
import type { Ctx } from '../../../context.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { findInvoiceById, type InvoiceRow, lockInvoiceInTx } from '../invoices/collect.ts'
import { isCollectible } from '../invoices/lifecycle.ts'
import { findSubscriptionById } from '../subscriptions/hooks.ts'
import { chargeFailedInTx, chargeSucceededInTx } from './outcome.ts'
import { readAttempts, readPaymentMethod } from './payment-json.ts'
import { stripeProvider } from './stripe-provider.ts'
import { lockPaymentInTx } from './lock.ts'
import { insertPayment, lockUnsettledStripePayment, type PaymentRow, savePayment } from './store.ts'

/** How long a collection may go without an answer before another takes it over (the client gives up well before). */
export const PROCESSING_STALE_MS = 10 * 60_000

/** `pending`: this collection had no answer from Stripe (the payment stays processing); `in_progress`: another collection holds it. */
export type ChargeOutcome = 'succeeded' | 'failed' | 'skipped' | 'in_progress' | 'pending'

type Claim =
  | { kind: 'skipped' | 'in_progress'; payment?: PaymentRow }
  | { kind: 'failed'; payment: PaymentRow }
  | { kind: 'charge'; payment: PaymentRow; attempt: number; paymentMethodId: string; invoice: InvoiceRow }

function newPayment(ctx: Ctx, invoice: InvoiceRow, now: number): PaymentRow {
  return {
    id: prefixedId('pi'),
    organization_id: invoice.organization_id,
    invoice_id: invoice.id,
    amount: Number(invoice.amount_remaining),
    currency: invoice.currency,
    status: 'processing',
    provider: 'stripe',
    provider_payment_id: null,
    payment_method: null,
    reference: null,
    last_error: null,
    attempts: '[]',
    amount_refunded: 0,
    recorded_by: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
    succeeded_at: null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
  }
}

function claim(ctx: Ctx, input: { invoiceId: string; paymentMethodId: string | null }, now: number): Promise<Claim> {
  return ctx.db.write('payment.claim', async (tx): Promise<Claim> => {
    // Locked (its subscription first): collections of one invoice claim one after the other, so one
    // payment is made and one charge is in flight; the others find it processing (in_progress).
    const invoice = await lockInvoiceInTx(tx, input.invoiceId)
    if (!invoice || !isCollectible(invoice.status) || Number(invoice.amount_remaining) <= 0) return { kind: 'skipped' }
    const existing = await lockUnsettledStripePayment(tx, invoice.id)
    if (existing?.status === 'processing') {
      if (now - Number(existing.updated_at) < PROCESSING_STALE_MS) return { kind: 'in_progress', payment: existing }
      // Taken over: the same attempt, amount and card, so Stripe sees the very request it may have answered.
      const pm = readPaymentMethod(existing)?.id
      if (pm) {
        const retaken = { ...existing, updated_at: now }
        await savePayment(tx, retaken)
        return { kind: 'charge', payment: retaken, attempt: readAttempts(existing).length + 1, paymentMethodId: pm, invoice }
      }
    }
    const subscription = invoice.subscription_id === null ? undefined : await findSubscriptionById(tx, invoice.subscription_id)
    const paymentMethodId = input.paymentMethodId ?? subscription?.default_payment_method_id ?? null
    const base = existing ?? newPayment(ctx, invoice, now)
    const payment: PaymentRow = {
      ...base,
      status: 'processing',
      amount: Number(invoice.amount_remaining),
      currency: invoice.currency,
      provider_payment_id: null,
      payment_method:
        paymentMethodId === null ? base.payment_method : JSON.stringify({ type: 'card', last4: null, brand: null, id: paymentMethodId }),
      updated_at: now,
    }
    if (existing) await savePayment(tx, payment)
    else await insertPayment(tx, payment)
    if (paymentMethodId === null) {
      const error = { code: 'no_payment_method', message: 'No payment method to charge: the subscription has no default payment method' }
      return {
        kind: 'failed',
        payment: await chargeFailedInTx(tx, ctx, payment, { providerPaymentId: null, paymentMethod: null, error, now }),
      }
    }
    return { kind: 'charge', payment, attempt: readAttempts(payment).length + 1, paymentMethodId, invoice }
  })
}

/** Charges the invoice's amount remaining now (the cron loop's collection, or the organization paying by card). */
export async function chargeInvoice(
  ctx: Ctx,
  input: { invoiceId: string; paymentMethodId: string | null },
): Promise<{ outcome: ChargeOutcome; payment?: PaymentRow }> {
  const settings = ctx.config.billing.stripe
  if (ctx.config.billing.provider !== 'stripe' || !settings) return { outcome: 'skipped' }
  const now = ctx.clock.now()
  const claimed = await claim(ctx, input, now)
  if (claimed.kind !== 'charge') return { outcome: claimed.kind, payment: claimed.payment }
  const { payment, attempt, invoice } = claimed
  const result = await stripeProvider(settings).charge(ctx, {
    organizationId: payment.organization_id,
    invoiceId: invoice.id,
    paymentId: payment.id,
    attempt,
    amount: Number(payment.amount),
    currency: payment.currency,
    paymentMethodId: claimed.paymentMethodId,
    description: `Invoice ${invoice.number ?? invoice.id}`,
  })
  if (result.outcome === 'unknown') return { outcome: 'pending', payment }
  return ctx.db.write('payment.outcome', async (tx) => {
    // Locked (its invoice first): this answer and Stripe's webhook at the same moment settle the attempt once.
    const current = await lockPaymentInTx(tx, payment.id)
    // Settled meanwhile (Stripe's webhook came first, or a takeover): that outcome stands.
    if (current?.status !== 'processing' || readAttempts(current).length + 1 !== attempt)
      return { outcome: current?.status === 'succeeded' ? 'succeeded' : 'failed', payment: current } as const
    const outcome = { providerPaymentId: result.providerPaymentId, paymentMethod: result.paymentMethod, now }
    if (result.outcome === 'succeeded')
      return { outcome: 'succeeded', payment: await chargeSucceededInTx(tx, ctx, current, outcome) } as const
    return { outcome: 'failed', payment: await chargeFailedInTx(tx, ctx, current, { ...outcome, error: result.error }) } as const
  })
}

/**
 * Collects an invoice charged automatically (the cron loop's renewals and dunning retries). With the
 * manual provider, or an invoice sent for payment by transfer, there is nothing to do: 'skipped'.
 */
export async function collectInvoice(
  ctx: Ctx,
  input: { invoiceId: string; paymentMethodId?: string | null },
): Promise<'succeeded' | 'failed' | 'skipped' | 'in_progress'> {
  if (ctx.config.billing.provider !== 'stripe') return 'skipped'
  const invoice = await findInvoiceById(ctx.db, input.invoiceId)
  if (invoice?.collection_method !== 'charge_automatically') return 'skipped'
  const { outcome } = await chargeInvoice(ctx, { invoiceId: invoice.id, paymentMethodId: input.paymentMethodId ?? null })
  return outcome === 'pending' ? 'in_progress' : outcome
}
