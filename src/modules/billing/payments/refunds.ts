// Refunds (the operator's): all or part of what is left of a succeeded payment, never more. A transfer's
// refund is the operator's own transfer back, recorded as succeeded; a Stripe payment's goes through
// Stripe's refunds: pending first (counted in amount_refunded, so two refunds at once cannot exceed the
// payment), then Stripe's status; a refund Stripe refuses becomes failed and gives its amount back.
import type { Ctx } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { auditPayment } from './events.ts'
import { paymentProviderOf } from './provider-of.ts'
import {
  findPaymentById,
  findRefund,
  insertRefund,
  lockPaymentById,
  type PaymentRow,
  type RefundRow,
  saveRefund,
  savePayment,
} from './store.ts'

export async function refundPayment(ctx: Ctx, input: { paymentId: string; amount?: number; reason?: string | null }): Promise<RefundRow> {
  const now = ctx.clock.now()
  const found = await findPaymentById(ctx.db, input.paymentId)
  if (!found) throw new AppError('NOT_FOUND', 'No such payment')
  const provider = paymentProviderOf(ctx, found.provider)
  const manual = found.provider === 'manual'
  const refund = await ctx.db.write('refund.create', async (tx) => {
    // Locked: refunds at the same moment count one after the other, never past the payment's amount. (The
    // payment's row only: a refund touches no invoice, and only a succeeded payment, which nothing else moves.)
    const payment = await lockPaymentById(tx, input.paymentId)
    if (!payment) throw new AppError('NOT_FOUND', 'No such payment')
    if (payment.status !== 'succeeded')
      throw new AppError('INVALID_STATE_TRANSITION', `A ${payment.status} payment cannot be refunded: only a succeeded one can`)
    const left = Number(payment.amount) - Number(payment.amount_refunded)
    if (left <= 0) throw new AppError('CONFLICT', 'The payment is refunded in full already')
    const amount = input.amount ?? left
    if (amount > left) throw validationError([{ field: 'amount', message: `must be at most what is left to refund (${left})` }])
    const row: RefundRow = {
      id: prefixedId('re'),
      organization_id: payment.organization_id,
      payment_id: payment.id,
      amount,
      currency: payment.currency,
      status: manual ? 'succeeded' : 'pending',
      reason: input.reason ?? null,
      provider_refund_id: null,
      created_at: now,
      updated_at: now,
    }
    await insertRefund(tx, row)
    const refunded: PaymentRow = { ...payment, amount_refunded: Number(payment.amount_refunded) + amount, updated_at: now }
    await savePayment(tx, refunded)
    await auditPayment(tx, ctx, 'refund.created', refunded, now, { refund_id: row.id, refund_amount: amount, reason: row.reason })
    return row
  })
  if (manual) return refund
  const result = await provider.refund(ctx, {
    refundId: refund.id,
    organizationId: refund.organization_id,
    paymentId: found.id,
    providerPaymentId: found.provider_payment_id,
    amount: Number(refund.amount),
    reason: refund.reason,
  })
  // No answer: it stays pending (Stripe's own refunds can stay pending for days too).
  if (result.outcome === 'unknown') return refund
  const status = result.outcome === 'done' ? result.status : 'failed'
  const settled = await ctx.db.write('refund.update', async (tx) => {
    const current = (await findRefund(tx, refund.id))!
    const row: RefundRow = {
      ...current,
      status,
      provider_refund_id: result.outcome === 'done' ? result.providerRefundId : null,
      updated_at: now,
    }
    await saveRefund(tx, row)
    // Locked: what a failed refund gives back is taken off amount_refunded as it is now (a refund meanwhile kept).
    const payment = (await lockPaymentById(tx, refund.payment_id))!
    const back = status === 'failed' || status === 'canceled' ? Number(refund.amount) : 0
    const after: PaymentRow = { ...payment, amount_refunded: Number(payment.amount_refunded) - back, updated_at: now }
    await savePayment(tx, after)
    await auditPayment(tx, ctx, 'refund.updated', after, now, { refund_id: row.id, refund_status: status })
    return row
  })
  if (result.outcome === 'refused') throw new AppError('CONFLICT', `Stripe refused the refund: ${result.error.message}`)
  return settled
}
