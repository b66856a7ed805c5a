// Payments on an invoice, inside the caller's transaction (the payments part calls these after a
// charge or a recorded transfer): an amount applied (paid when nothing remains: invoice.paid, then the
// subscription hears of it), or a failed attempt counted with the next retry from the dunning schedule
// (invoice.failed, then the subscription hears of it: past_due, or canceled/unpaid when exhausted).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { onInvoicePaidInTx, onInvoicePaymentFailedInTx } from '../subscriptions/hooks.ts'
import { recordInvoiceEvent } from './events.ts'
import { assertInvoiceTransition, isCollectible } from './lifecycle.ts'
import { loadInvoiceInTx } from './lock.ts'
import { type InvoiceRow, saveInvoice } from './store.ts'

/** open|uncollectible -> paid: paid_at, no more attempts, invoice.paid, then the subscription's hook. */
export async function markPaidInTx(tx: Tx, ctx: Ctx, invoice: InvoiceRow, now: number): Promise<InvoiceRow> {
  assertInvoiceTransition(invoice.status, 'paid')
  const paid: InvoiceRow = { ...invoice, status: 'paid', amount_remaining: 0, paid_at: now, next_payment_attempt: null, updated_at: now }
  await saveInvoice(tx, paid)
  await recordInvoiceEvent(tx, ctx, 'invoice.paid', paid, now)
  if (paid.subscription_id !== null) await onInvoicePaidInTx(tx, ctx, paid, now)
  return paid
}

/** Applies a payment of `amount` (> 0, at most what remains) to an open or uncollectible invoice. */
export async function applyInvoicePaymentInTx(
  tx: Tx,
  ctx: Ctx,
  input: { invoiceId: string; amount: number; now: number },
): Promise<InvoiceRow> {
  // Locked: payments at the same moment add up one after the other, never past the amount remaining.
  const invoice = await loadInvoiceInTx(tx, input.invoiceId)
  assertInvoiceTransition(invoice.status, 'paid')
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw validationError([{ field: 'amount', message: 'must be a whole number of minor units above 0' }])
  const remaining = Number(invoice.amount_remaining)
  if (input.amount > remaining)
    throw new AppError('CONFLICT', `The payment (${input.amount}) is more than the invoice's amount remaining (${remaining})`)
  const after: InvoiceRow = {
    ...invoice,
    amount_paid: Number(invoice.amount_paid) + input.amount,
    amount_remaining: remaining - input.amount,
    updated_at: input.now,
  }
  if (after.amount_remaining === 0) return markPaidInTx(tx, ctx, after, input.now)
  await saveInvoice(tx, after)
  return after
}

/**
 * A failed payment attempt: attempt_count + 1, and the next attempt at first_failed_at + the schedule's
 * delay for this attempt (BILLING_RETRY_SCHEDULE), or none when the schedule is exhausted.
 */
export async function recordInvoicePaymentFailureInTx(
  tx: Tx,
  ctx: Ctx,
  input: { invoiceId: string; error: { code: string; message: string }; now: number },
): Promise<{ invoice: InvoiceRow; retriesExhausted: boolean }> {
  // Locked: each failed attempt counted once (attempt_count, the retry schedule).
  const invoice = await loadInvoiceInTx(tx, input.invoiceId)
  if (!isCollectible(invoice.status))
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `A ${invoice.status} invoice takes no payment: a failed attempt cannot be recorded on it`,
    )
  const attempts = Number(invoice.attempt_count) + 1
  const firstFailedAt = invoice.first_failed_at === null ? input.now : Number(invoice.first_failed_at)
  const delay = ctx.config.billing.retryScheduleMs[attempts - 1]
  // An uncollectible invoice is no longer retried by the cron loop, whatever happens to a manual attempt.
  const next = delay === undefined || invoice.status !== 'open' ? null : firstFailedAt + delay
  const failed: InvoiceRow = {
    ...invoice,
    attempt_count: attempts,
    first_failed_at: firstFailedAt,
    next_payment_attempt: next,
    updated_at: input.now,
  }
  await saveInvoice(tx, failed)
  const retriesExhausted = delay === undefined
  await recordInvoiceEvent(tx, ctx, 'invoice.failed', failed, input.now, { error: input.error })
  if (failed.subscription_id !== null) await onInvoicePaymentFailedInTx(tx, ctx, failed, { retriesExhausted, now: input.now })
  return { invoice: failed, retriesExhausted }
}
