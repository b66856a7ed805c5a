// Bank transfers (the manual provider): the organization announces one (a payment processing until the
// operator confirms it); the operator records one received (succeeded at once; partial payments allowed,
// never more than the invoice's amount remaining), confirms an announced one, or cancels it (the money never
// came: it fails with payment.failed, as a bounce does, bounce.ts). A payment that succeeds is applied to its
// invoice in the same transaction; one that fails leaves its invoice open.
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { applyInvoicePaymentInTx, findInvoice, type InvoiceRow, lockInvoiceInTx } from '../invoices/collect.ts'
import { assertInvoiceTransition } from '../invoices/lifecycle.ts'
import type { PaymentStatus } from '../table.ts'
import { auditPayment, recordPaymentEvent } from './events.ts'
import { type PaymentError, readAttempts } from './payment-json.ts'
import { lockPaymentInTx } from './lock.ts'
import { findProcessingTransfer, insertPayment, type PaymentRow, savePayment } from './store.ts'

function transferRow(
  invoice: InvoiceRow,
  input: { amount: number; reference: string; recordedBy: string; status: PaymentStatus; now: number },
): PaymentRow {
  const { now } = input
  return {
    id: prefixedId('pi'),
    organization_id: invoice.organization_id,
    invoice_id: invoice.id,
    amount: input.amount,
    currency: invoice.currency,
    status: input.status,
    provider: 'manual',
    provider_payment_id: null,
    payment_method: null,
    reference: input.reference,
    last_error: null,
    attempts: '[]',
    amount_refunded: 0,
    recorded_by: input.recordedBy,
    succeeded_at: input.status === 'succeeded' ? now : null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
  }
}

/** The organization says it sent a bank transfer of the amount remaining: a payment processing, awaiting the operator. */
export async function announceTransfer(ctx: Ctx<UserActor>, input: { invoiceId: string; reference: string }): Promise<PaymentRow> {
  const now = ctx.clock.now()
  return ctx.db.write('payment.announce_transfer', async (tx) => {
    const invoice = await findInvoice(tx, ctx.actor.organizationId, input.invoiceId)
    if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice')
    assertInvoiceTransition(invoice.status, 'paid')
    // Two announcements at once both insert: payments_one_processing_transfer refuses the second (23505),
    // whose block runs again and finds the first here (409).
    const waiting = await findProcessingTransfer(tx, invoice.id)
    if (waiting)
      throw new AppError('CONFLICT', `A transfer (${waiting.id}) is already awaiting the operator's confirmation for this invoice`)
    const payment = transferRow(invoice, {
      amount: Number(invoice.amount_remaining),
      reference: input.reference,
      recordedBy: ctx.actor.userId,
      status: 'processing',
      now,
    })
    await insertPayment(tx, payment)
    await auditPayment(tx, ctx, 'payment.created', payment, now, { reference: payment.reference })
    return payment
  })
}

/** The operator received a transfer for the invoice: a payment succeeded now, of `amount` (default: all that remains). */
export async function recordTransfer(ctx: Ctx, input: { invoiceId: string; amount?: number; reference: string }): Promise<PaymentRow> {
  const now = ctx.clock.now()
  return ctx.db.write('payment.record_transfer', async (tx) => {
    // Locked: transfers at the same moment are checked against what remains after each other (never overpaid).
    const invoice = await lockInvoiceInTx(tx, input.invoiceId)
    if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice')
    assertInvoiceTransition(invoice.status, 'paid')
    const remaining = Number(invoice.amount_remaining)
    const amount = input.amount ?? remaining
    if (amount > remaining)
      throw validationError([{ field: 'amount', message: `must be at most the invoice's amount remaining (${remaining})` }])
    const payment = transferRow(invoice, { amount, reference: input.reference, recordedBy: 'operator', status: 'succeeded', now })
    await insertPayment(tx, payment)
    await recordPaymentEvent(tx, ctx, 'payment.succeeded', payment, now)
    await applyInvoicePaymentInTx(tx, ctx, { invoiceId: invoice.id, amount, now })
    return payment
  })
}

/** Any organization's payment under its row lock (its invoice's first), or 404: confirm, bounce and cancel at once move it once, the others 409. */
export async function loadPayment(tx: Tx, id: string): Promise<PaymentRow> {
  const payment = await lockPaymentInTx(tx, id)
  if (!payment) throw new AppError('NOT_FOUND', 'No such payment')
  return payment
}

/** An announced transfer arrived: processing → succeeded, applied to its invoice. */
export async function confirmTransfer(ctx: Ctx, input: { paymentId: string }): Promise<PaymentRow> {
  const now = ctx.clock.now()
  return ctx.db.write('payment.confirm', async (tx) => {
    const payment = await loadPayment(tx, input.paymentId)
    if (payment.provider !== 'manual' || payment.status !== 'processing')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        payment.provider === 'manual'
          ? `A ${payment.status} payment cannot become succeeded: only a processing transfer is confirmed`
          : `A ${payment.status} Stripe payment cannot become succeeded by the operator: Stripe reports its outcome`,
      )
    const succeeded: PaymentRow = { ...payment, status: 'succeeded', succeeded_at: now, updated_at: now }
    await savePayment(tx, succeeded)
    await recordPaymentEvent(tx, ctx, 'payment.succeeded', succeeded, now)
    if (payment.invoice_id !== null)
      await applyInvoicePaymentInTx(tx, ctx, { invoiceId: payment.invoice_id, amount: Number(payment.amount), now })
    return succeeded
  })
}

const CANCELABLE: readonly PaymentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action']

/**
 * A processing transfer -> canceled with `error` as its last, failed attempt, and `payment.failed` (its audit
 * record with it): a bounce, or the operator's cancel of an announced transfer (transfers.ts).
 */
export async function failTransferInTx(tx: Tx, ctx: Ctx, payment: PaymentRow, error: PaymentError, now: number): Promise<PaymentRow> {
  const failed: PaymentRow = {
    ...payment,
    status: 'canceled',
    last_error: JSON.stringify(error),
    attempts: JSON.stringify([...readAttempts(payment), { attempted_at: isoTime(now), outcome: 'failed', error }]),
    canceled_at: now,
    updated_at: now,
  }
  await savePayment(tx, failed)
  await recordPaymentEvent(tx, ctx, 'payment.failed', failed, now, error)
  return failed
}

/** The error of an announced transfer the operator cancels: it failed, as a bounced one does. */
export const TRANSFER_CANCELED = 'transfer_canceled'

/**
 * A payment given up on → canceled. An announced transfer (processing) fails: `payment.failed` with
 * `transfer_canceled`, the invoice stays open. One not yet attempted (requires_…) is only audited. A
 * charge in flight cannot be.
 */
export async function cancelPayment(ctx: Ctx, input: { paymentId: string }): Promise<PaymentRow> {
  const now = ctx.clock.now()
  return ctx.db.write('payment.cancel', async (tx) => {
    const payment = await loadPayment(tx, input.paymentId)
    const allowed = CANCELABLE.includes(payment.status) || (payment.status === 'processing' && payment.provider === 'manual')
    if (!allowed)
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        payment.status === 'processing'
          ? 'A processing Stripe payment cannot become canceled: the charge is in flight'
          : `A ${payment.status} payment cannot become canceled`,
      )
    if (payment.status === 'processing')
      return failTransferInTx(
        tx,
        ctx,
        payment,
        {
          code: TRANSFER_CANCELED,
          message: `The bank transfer ${payment.reference} was canceled by the operator: the money never arrived`,
        },
        now,
      )
    const canceled: PaymentRow = { ...payment, status: 'canceled', canceled_at: now, updated_at: now }
    await savePayment(tx, canceled)
    await auditPayment(tx, ctx, 'payment.canceled', canceled, now)
    return canceled
  })
}
