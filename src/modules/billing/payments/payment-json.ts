// A payment (a PaymentIntent) and a refund as the API and the events (data.payment) show them; and the
// JSON columns of a payment row read and written (payment method, last error, attempts).
import { isoTime } from '../../../lib/clock.ts'
import type { PaymentRow, RefundRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

export interface PaymentError {
  code: string
  message: string
}

export interface PaymentAttempt {
  attempted_at: string
  outcome: 'succeeded' | 'failed'
  error: PaymentError | null
}

/**
 * The payment method as stored: the card Stripe reported (type, last4, brand), plus Stripe's id of the
 * payment method charged (`pm_…`, never shown) so that a collection taken over after a crash sends
 * Stripe exactly the same request.
 */
export interface StoredPaymentMethod {
  type: string
  last4: string | null
  brand: string | null
  id?: string | null
}

export function readPaymentMethod(row: PaymentRow): StoredPaymentMethod | null {
  return row.payment_method === null ? null : (JSON.parse(row.payment_method) as StoredPaymentMethod)
}

export function readAttempts(row: PaymentRow): PaymentAttempt[] {
  return JSON.parse(row.attempts) as PaymentAttempt[]
}

export function readLastError(row: PaymentRow): PaymentError | null {
  return row.last_error === null ? null : (JSON.parse(row.last_error) as PaymentError)
}

export function refundJson(row: RefundRow) {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    created_at: isoTime(Number(row.created_at)),
  }
}

export function paymentJson(row: PaymentRow, refunds: readonly RefundRow[]) {
  const method = readPaymentMethod(row)
  return {
    id: row.id,
    organization_id: row.organization_id,
    invoice_id: row.invoice_id,
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    provider_payment_id: row.provider_payment_id,
    // Shown once Stripe has said which card it was.
    payment_method:
      method && (method.last4 !== null || method.brand !== null) ? { type: method.type, last4: method.last4, brand: method.brand } : null,
    reference: row.reference,
    last_error: readLastError(row),
    attempts: readAttempts(row),
    amount_refunded: Number(row.amount_refunded),
    refunds: refunds.map(refundJson),
    succeeded_at: time(row.succeeded_at),
    canceled_at: time(row.canceled_at),
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type PaymentJson = ReturnType<typeof paymentJson>
export type RefundJson = ReturnType<typeof refundJson>
