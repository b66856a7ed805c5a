// An announced bank transfer that failed — the bank returned it, or it never arrived — marked so by the
// operator: processing -> canceled with the failure as its last attempt (`transfer_bounced`), and
// `payment.failed` goes out as for a declined card. The invoice stays open and owed (its due date and
// the overdue dunning go on as before: a send_invoice invoice fails on its due date, not on a transfer),
// and the organization may announce another transfer. Only a processing transfer bounces: a confirmed
// (succeeded) one, a canceled one or a Stripe payment is 409 naming both states.
import type { Ctx } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import type { PaymentError } from './payment-json.ts'
import type { PaymentRow } from './store.ts'
import { failTransferInTx, loadPayment } from './transfers.ts'

export const TRANSFER_BOUNCED = 'transfer_bounced'

export async function bounceTransfer(ctx: Ctx, input: { paymentId: string; reason?: string }): Promise<PaymentRow> {
  const now = ctx.clock.now()
  return ctx.db.write('payment.bounce', async (tx) => {
    // Under the payment's row lock (loadPayment): a confirmation and a bounce of the same transfer at once
    // are one after the other, and the second finds the first's status.
    const payment = await loadPayment(tx, input.paymentId)
    if (payment.provider !== 'manual')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${payment.status} Stripe payment cannot become canceled by a bounce: Stripe reports its failures`,
      )
    if (payment.status !== 'processing')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${payment.status} transfer cannot become canceled by a bounce: only a processing (announced, unconfirmed) transfer can`,
      )
    const error: PaymentError = {
      code: TRANSFER_BOUNCED,
      message: input.reason ?? `The bank transfer ${payment.reference} was returned or never arrived`,
    }
    return failTransferInTx(tx, ctx, payment, error, now)
  })
}
