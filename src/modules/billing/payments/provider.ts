// The payment provider, pluggable: what a provider does for us (charge a card off-session, refund) and
// what it answers. `manual` (bank transfers: nothing to call) and `stripe` (PaymentIntents) implement
// it (provider-of.ts picks one by a payment's provider). Never called inside a write transaction.
import type { Ctx } from '../../../context.ts'
import type { PaymentProvider, RefundStatus } from '../table.ts'
import type { PaymentError, StoredPaymentMethod } from './payment-json.ts'

export interface ChargeInput {
  organizationId: string
  invoiceId: string
  /** Our payment (`pi_…`) and the attempt being made (1 first): together, the provider's idempotency key. */
  paymentId: string
  attempt: number
  amount: number
  currency: string
  /** The provider's payment method (Stripe's `pm_…`). */
  paymentMethodId: string
  description: string
}

/**
 * What a charge came to. `unknown`: no answer (network, the provider's 5xx) — the charge may have
 * happened; the payment stays processing and is taken over later with the same idempotency key.
 */
export type ChargeResult =
  | { outcome: 'succeeded'; providerPaymentId: string; paymentMethod: StoredPaymentMethod | null }
  | { outcome: 'failed'; providerPaymentId: string | null; paymentMethod: StoredPaymentMethod | null; error: PaymentError }
  | { outcome: 'unknown'; error: PaymentError }

export interface RefundInput {
  /** Our refund (`re_…`): the provider's idempotency key. */
  refundId: string
  organizationId: string
  paymentId: string
  providerPaymentId: string | null
  amount: number
  reason: string | null
}

export type RefundResult =
  | { outcome: 'done'; status: RefundStatus; providerRefundId: string | null }
  | { outcome: 'refused'; error: PaymentError }
  | { outcome: 'unknown'; error: PaymentError }

export interface PaymentProviderClient {
  readonly name: PaymentProvider
  charge(ctx: Ctx, input: ChargeInput): Promise<ChargeResult>
  refund(ctx: Ctx, input: RefundInput): Promise<RefundResult>
}
