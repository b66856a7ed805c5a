// The organization pays an open (or uncollectible) invoice: with Stripe, by card now (the payment method
// given, else its subscription's default) — a decline is 402 PAYMENT_FAILED saying why, the attempt
// recorded; with the manual provider, by announcing a bank transfer (a payment processing until the
// operator confirms it).
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { findInvoice } from '../invoices/collect.ts'
import { assertInvoiceTransition } from '../invoices/lifecycle.ts'
import { findSubscriptionById } from '../subscriptions/hooks.ts'
import { chargeInvoice } from './collect.ts'
import { readLastError } from './payment-json.ts'
import type { PaymentRow } from './store.ts'
import { announceTransfer } from './transfers.ts'

export interface PayInvoiceInput {
  invoiceId: string
  payment_method_id?: string
  reference?: string
}

/** The payment, and whether Stripe has not answered yet (the payment stays processing). */
export async function payInvoice(ctx: Ctx<UserActor>, input: PayInvoiceInput): Promise<{ payment: PaymentRow; pending: boolean }> {
  const invoice = await findInvoice(ctx.db, ctx.actor.organizationId, input.invoiceId)
  if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice')
  assertInvoiceTransition(invoice.status, 'paid')
  if (ctx.config.billing.provider === 'manual') {
    if (input.payment_method_id !== undefined)
      throw validationError([{ field: 'payment_method_id', message: 'payments are made by bank transfer here: send reference instead' }])
    if (input.reference === undefined)
      throw validationError([{ field: 'reference', message: "is required: the bank transfer's reference" }])
    return { payment: await announceTransfer(ctx, { invoiceId: invoice.id, reference: input.reference }), pending: false }
  }
  if (input.reference !== undefined)
    throw validationError([{ field: 'reference', message: 'payments are made by card here: send payment_method_id instead' }])
  const subscription = invoice.subscription_id === null ? undefined : await findSubscriptionById(ctx.db, invoice.subscription_id)
  const paymentMethodId = input.payment_method_id ?? subscription?.default_payment_method_id ?? null
  if (paymentMethodId === null)
    throw validationError([{ field: 'payment_method_id', message: 'is required: the subscription has no default payment method' }])
  const { outcome, payment } = await chargeInvoice(ctx, { invoiceId: invoice.id, paymentMethodId })
  if (outcome === 'skipped' || !payment) throw new AppError('CONFLICT', 'The invoice can no longer be paid: it changed meanwhile')
  if (outcome === 'in_progress') throw new AppError('CONFLICT', `A payment of this invoice (${payment.id}) is already in progress`)
  if (outcome === 'failed') {
    const error = readLastError(payment)
    throw new AppError(
      'PAYMENT_FAILED',
      `${error?.message ?? 'The payment failed'} (${error?.code ?? 'payment_failed'}); payment ${payment.id} awaits another payment method`,
      { errors: [{ field: 'payment_id', message: payment.id }] },
    )
  }
  return { payment, pending: outcome === 'pending' }
}
