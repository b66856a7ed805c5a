// The payment events (catalog group `billing`), recorded in the transaction of the change with the full
// payment, refunds included, under data.payment: payment.succeeded and payment.failed (+ error). The
// other changes of a payment have no event and are audited: payment.created (a transfer awaiting
// confirmation), payment.canceled, refund.created, refund.updated.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { recordChange } from '../../events/index.ts'
import { type PaymentError, paymentJson } from './payment-json.ts'
import { findRefundsOf, type PaymentRow } from './store.ts'

export async function recordPaymentEvent(
  tx: Tx,
  ctx: Ctx,
  type: 'payment.succeeded' | 'payment.failed',
  payment: PaymentRow,
  now: number,
  error?: PaymentError,
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: payment.organization_id,
    target: { type: 'payment', id: payment.id },
    data: { payment: paymentJson(payment, await findRefundsOf(tx, payment.id)), ...(error ? { error } : {}) },
    now,
  })
}

export type PaymentAuditEvent = 'payment.created' | 'payment.canceled' | 'refund.created' | 'refund.updated'

/** A change without an event: its audit record, in the same transaction. */
export async function auditPayment(
  tx: Tx,
  ctx: Ctx,
  event: PaymentAuditEvent,
  payment: PaymentRow,
  now: number,
  details: Record<string, unknown> = {},
): Promise<void> {
  await appendAudit(tx, {
    organizationId: payment.organization_id,
    actor: auditActorOf(ctx.actor),
    event,
    target: { type: 'payment', id: payment.id },
    details: { amount: Number(payment.amount), currency: payment.currency, status: payment.status, ...details },
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
}
