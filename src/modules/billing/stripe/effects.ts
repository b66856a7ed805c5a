// What Stripe's events do to ours, inside the webhook's transaction. A PaymentIntent's outcome applies
// to our payment (by Stripe's id, or by its metadata when our request never heard back) exactly as
// collectInvoice applies it, and only for the attempt in flight; a Stripe invoice naming one of ours
// (metadata.switchboard_invoice_id, looked up in the organization of the Stripe customer) is paid,
// fails a payment attempt, is voided or marked uncollectible — when our invoice can still move so.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { prefixedId } from '../../../lib/ids.ts'
import {
  findInvoice,
  type InvoiceRow,
  lockInvoiceInTx,
  markInvoiceUncollectibleInTx,
  recordInvoicePaymentFailureInTx,
  voidInvoiceInTx,
} from '../invoices/collect.ts'
import { isCollectible } from '../invoices/lifecycle.ts'
import { lockPaymentInTx } from '../payments/lock.ts'
import { chargeFailedInTx, chargeSucceededInTx } from '../payments/outcome.ts'
import { readAttempts } from '../payments/payment-json.ts'
import {
  findPaymentByProviderId,
  insertPayment,
  lockUnsettledStripePayment,
  organizationOfCustomer,
  type PaymentRow,
} from '../payments/store.ts'
import type { INVOICE_EVENTS, PAYMENT_INTENT_EVENTS, StripeInvoice, StripePaymentIntent } from './event-shape.ts'

/** The object an event refers to (its organization), and the change it makes: true when something changed. */
export interface Target {
  organizationId: string
  apply(ctx: Ctx, now: number): Promise<boolean>
}

export type Effect = (tx: Tx) => Promise<Target | undefined>

/** Our payment of the PaymentIntent, under its row lock: two events at once (or an event and our request's answer) apply it once. */
async function paymentOf(tx: Tx, intent: StripePaymentIntent): Promise<PaymentRow | undefined> {
  const found = await findPaymentByProviderId(tx, intent.id)
  if (found) return lockPaymentInTx(tx, found.id)
  const ours = intent.metadata?.switchboard_payment_id
  if (!ours) return undefined
  const payment = await lockPaymentInTx(tx, ours)
  return payment && payment.provider === 'stripe' && payment.organization_id === intent.metadata?.switchboard_organization_id
    ? payment
    : undefined
}

/** The PaymentIntent of the attempt in flight (or last made), not an older attempt's. */
function isCurrent(payment: PaymentRow, intent: StripePaymentIntent): boolean {
  if (payment.provider_payment_id !== null) return payment.provider_payment_id === intent.id
  return intent.metadata?.switchboard_attempt === String(readAttempts(payment).length + 1)
}

export async function paymentIntentEffect(
  tx: Tx,
  type: (typeof PAYMENT_INTENT_EVENTS)[number],
  intent: StripePaymentIntent,
): Promise<Target | undefined> {
  const payment = await paymentOf(tx, intent)
  if (!payment) return undefined
  return {
    organizationId: payment.organization_id,
    async apply(ctx, now) {
      if (!isCurrent(payment, intent)) return false
      const outcome = { providerPaymentId: intent.id, paymentMethod: null, now }
      if (type === 'payment_intent.succeeded') {
        if (payment.status !== 'processing' && payment.status !== 'requires_payment_method') return false
        await chargeSucceededInTx(tx, ctx, payment, outcome)
        return true
      }
      if (payment.status !== 'processing') return false
      const last = intent.last_payment_error
      const error = {
        code: last?.decline_code || last?.code || 'payment_failed',
        message: last?.message ?? 'The payment failed',
      }
      await chargeFailedInTx(tx, ctx, payment, { ...outcome, error })
      return true
    },
  }
}

/** A payment for what remains of the invoice, paid through Stripe's own invoice: the unsettled one, else a new one. */
async function paidThroughStripe(tx: Tx, ctx: Ctx, invoice: InvoiceRow, stripeInvoice: StripeInvoice, now: number): Promise<void> {
  const remaining = Number(invoice.amount_remaining)
  const unsettled = await lockUnsettledStripePayment(tx, invoice.id)
  let payment: PaymentRow
  if (unsettled) payment = { ...unsettled, amount: remaining }
  else {
    payment = {
      id: prefixedId('pi'),
      organization_id: invoice.organization_id,
      invoice_id: invoice.id,
      amount: remaining,
      currency: invoice.currency,
      status: 'processing',
      provider: 'stripe',
      provider_payment_id: null,
      payment_method: null,
      reference: `Stripe invoice ${stripeInvoice.id}`,
      last_error: null,
      attempts: '[]',
      amount_refunded: 0,
      recorded_by: null,
      succeeded_at: null,
      canceled_at: null,
      created_at: now,
      updated_at: now,
    }
    await insertPayment(tx, payment)
  }
  await chargeSucceededInTx(tx, ctx, payment, { providerPaymentId: null, paymentMethod: null, now })
}

export async function invoiceEffect(
  tx: Tx,
  type: (typeof INVOICE_EVENTS)[number],
  stripeInvoice: StripeInvoice,
): Promise<Target | undefined> {
  const ours = stripeInvoice.metadata?.switchboard_invoice_id
  const customer = typeof stripeInvoice.customer === 'string' ? stripeInvoice.customer : stripeInvoice.customer?.id
  if (!ours || !customer) return undefined
  const organizationId = await organizationOfCustomer(tx, customer)
  const owned = organizationId === undefined ? undefined : await findInvoice(tx, organizationId, ours)
  // Locked (its subscription first): the move below is decided on its status as it is now, not as it was.
  const invoice = owned && (await lockInvoiceInTx(tx, owned.id))
  if (!invoice) return undefined
  return {
    organizationId: invoice.organization_id,
    async apply(ctx, now) {
      switch (type) {
        case 'invoice.paid':
          if (!isCollectible(invoice.status) || Number(invoice.amount_remaining) <= 0) return false
          await paidThroughStripe(tx, ctx, invoice, stripeInvoice, now)
          return true
        case 'invoice.payment_failed': {
          if (!isCollectible(invoice.status)) return false
          const error = { code: 'stripe_invoice_payment_failed', message: `Stripe could not collect its invoice ${stripeInvoice.id}` }
          await recordInvoicePaymentFailureInTx(tx, ctx, { invoiceId: invoice.id, error, now })
          return true
        }
        case 'invoice.voided':
          if (!isCollectible(invoice.status) || Number(invoice.amount_paid) > 0) return false
          await voidInvoiceInTx(tx, ctx, invoice.id, now)
          return true
        case 'invoice.marked_uncollectible':
          if (invoice.status !== 'open') return false
          await markInvoiceUncollectibleInTx(tx, ctx, invoice.id, now)
          return true
      }
    },
  }
}
