// What a charge's outcome does, inside the caller's transaction — the same whether the answer came back
// to our request (collectInvoice) or later from Stripe's webhook: the payment succeeded (payment.succeeded,
// the amount applied to its invoice) or failed (requires_payment_method with last_error, payment.failed,
// the failed attempt counted on the invoice: dunning).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { addCreditInTx } from '../accounts/account.ts'
import { applyInvoicePaymentInTx, lockInvoiceInTx, recordInvoicePaymentFailureInTx } from '../invoices/collect.ts'
import { isCollectible } from '../invoices/lifecycle.ts'
import { recordPaymentEvent } from './events.ts'
import { type PaymentError, readAttempts, readPaymentMethod, type StoredPaymentMethod } from './payment-json.ts'
import { type PaymentRow, savePayment } from './store.ts'

export interface Outcome {
  providerPaymentId: string | null
  paymentMethod: StoredPaymentMethod | null
  now: number
}

function withAttempt(payment: PaymentRow, outcome: 'succeeded' | 'failed', error: PaymentError | null, now: number): string {
  return JSON.stringify([...readAttempts(payment), { attempted_at: new Date(now).toISOString(), outcome, error }])
}

function methodJson(payment: PaymentRow, reported: StoredPaymentMethod | null): string | null {
  const method = reported ?? readPaymentMethod(payment)
  return method === null ? null : JSON.stringify(method)
}

/** The payment's amount goes to its invoice: what remains of it, the rest to the organization's credit balance. */
export async function applyToInvoiceInTx(tx: Tx, ctx: Ctx, payment: PaymentRow, now: number): Promise<void> {
  if (payment.invoice_id === null) return
  // Locked: what remains is read as the payment lands (a transfer at the same moment comes before or after).
  const invoice = await lockInvoiceInTx(tx, payment.invoice_id)
  const remaining = invoice && isCollectible(invoice.status) ? Number(invoice.amount_remaining) : 0
  const applied = Math.min(Number(payment.amount), remaining)
  if (applied > 0) await applyInvoicePaymentInTx(tx, ctx, { invoiceId: payment.invoice_id, amount: applied, now })
  const excess = Number(payment.amount) - applied
  if (excess <= 0) return
  // Money taken for an invoice paid or voided meanwhile is not lost: it is owed back as credit (Stripe does the same).
  try {
    await addCreditInTx(tx, payment.organization_id, { amount: excess, currency: payment.currency, now })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    ctx.log.warn('payment: the excess could not be credited; refund it', { payment_id: payment.id, excess, reason: error.message })
  }
}

export async function chargeSucceededInTx(tx: Tx, ctx: Ctx, payment: PaymentRow, outcome: Outcome): Promise<PaymentRow> {
  const { now } = outcome
  const succeeded: PaymentRow = {
    ...payment,
    status: 'succeeded',
    provider_payment_id: outcome.providerPaymentId ?? payment.provider_payment_id,
    payment_method: methodJson(payment, outcome.paymentMethod),
    last_error: null,
    attempts: withAttempt(payment, 'succeeded', null, now),
    succeeded_at: now,
    updated_at: now,
  }
  await savePayment(tx, succeeded)
  await recordPaymentEvent(tx, ctx, 'payment.succeeded', succeeded, now)
  await applyToInvoiceInTx(tx, ctx, succeeded, now)
  return succeeded
}

export async function chargeFailedInTx(
  tx: Tx,
  ctx: Ctx,
  payment: PaymentRow,
  outcome: Outcome & { error: PaymentError },
): Promise<PaymentRow> {
  const { now, error } = outcome
  const failed: PaymentRow = {
    ...payment,
    status: 'requires_payment_method',
    provider_payment_id: outcome.providerPaymentId ?? payment.provider_payment_id,
    payment_method: methodJson(payment, outcome.paymentMethod),
    last_error: JSON.stringify(error),
    attempts: withAttempt(payment, 'failed', error, now),
    updated_at: now,
  }
  await savePayment(tx, failed)
  await recordPaymentEvent(tx, ctx, 'payment.failed', failed, now, error)
  if (payment.invoice_id === null) return failed
  // Locked: its status decides whether a failed attempt is counted on it.
  const invoice = await lockInvoiceInTx(tx, payment.invoice_id)
  if (invoice && isCollectible(invoice.status))
    await recordInvoicePaymentFailureInTx(tx, ctx, { invoiceId: payment.invoice_id, error, now })
  return failed
}
