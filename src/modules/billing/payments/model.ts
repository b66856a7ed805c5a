// Request and response schemas of the payments endpoints (the Payment and Refund components).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { MAX_AMOUNT } from '../money.ts'
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES, REFUND_STATUSES } from '../table.ts'
import { PAYMENT_LIST } from './store.ts'

const Time = t.String({ format: 'date-time' })
// TypeBox's own integer: Elysia's t.Integer also takes a string of digits ("100"), and an amount must be a number.
const Amount = (description: string) =>
  Type.Integer({
    minimum: 1,
    maximum: MAX_AMOUNT,
    description: `${description}, in minor units (a whole number: 2900 is 29.00 USD)`,
  })
const Reference = t.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: "The bank transfer's reference, as on the statement",
})

export const REFUND_EXAMPLE = {
  id: 're_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  payment_id: 'pi_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  amount: 1000,
  currency: 'usd',
  status: 'succeeded',
  reason: 'requested_by_customer',
  created_at: '2026-02-03T10:00:00.000Z',
}

export const PAYMENT_EXAMPLE = {
  id: 'pi_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  invoice_id: 'in_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  amount: 2900,
  currency: 'usd',
  status: 'succeeded',
  provider: 'stripe',
  provider_payment_id: 'pi_3PqR8sLkdIwHu7ix0Xa1b2c3',
  payment_method: { type: 'card', last4: '4242', brand: 'visa' },
  reference: null,
  last_error: null,
  attempts: [
    {
      attempted_at: '2026-02-01T12:00:00.000Z',
      outcome: 'failed',
      error: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    },
    { attempted_at: '2026-02-02T12:00:00.000Z', outcome: 'succeeded', error: null },
  ],
  amount_refunded: 1000,
  refunds: [REFUND_EXAMPLE],
  succeeded_at: '2026-02-02T12:00:00.000Z',
  canceled_at: null,
  created_at: '2026-02-01T12:00:00.000Z',
  updated_at: '2026-02-03T10:00:00.000Z',
}

const ErrorObject = t.Object({ code: t.String(), message: t.String() })

export const RefundBody = t.Object(
  {
    id: t.String(),
    payment_id: t.String(),
    amount: Type.Integer(),
    currency: t.String({ description: 'Lowercase ISO 4217' }),
    status: oneOf(REFUND_STATUSES),
    reason: t.Nullable(t.String()),
    created_at: Time,
  },
  { title: 'Refund', examples: [REFUND_EXAMPLE] },
)

export const PaymentBody = t.Object(
  {
    id: t.String(),
    organization_id: t.String(),
    invoice_id: t.Nullable(t.String()),
    amount: Type.Integer({ description: 'Minor units' }),
    currency: t.String({ description: 'Lowercase ISO 4217' }),
    status: oneOf(PAYMENT_STATUSES, { description: "Stripe's PaymentIntent statuses" }),
    provider: oneOf(PAYMENT_PROVIDERS),
    provider_payment_id: t.Nullable(t.String({ description: "Stripe's PaymentIntent of the latest attempt" })),
    payment_method: t.Nullable(
      t.Object(
        { type: t.String(), last4: t.Nullable(t.String()), brand: t.Nullable(t.String()) },
        { description: 'The card, as Stripe reported it' },
      ),
    ),
    reference: t.Nullable(t.String({ description: "A bank transfer's reference" })),
    last_error: t.Nullable(ErrorObject),
    attempts: t.Array(t.Object({ attempted_at: Time, outcome: oneOf(['succeeded', 'failed'] as const), error: t.Nullable(ErrorObject) }), {
      description: 'Each charge attempt, oldest first',
    }),
    amount_refunded: Type.Integer({ description: 'Refunded or being refunded (pending), minor units' }),
    refunds: t.Array(RefundBody),
    succeeded_at: t.Nullable(Time),
    canceled_at: t.Nullable(Time),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Payment', examples: [PAYMENT_EXAMPLE] },
)

export const PaymentList = listResponse('payments', PaymentBody)

export const IdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const PayInvoiceBody = t.Object(
  {
    payment_method_id: t.Optional(
      t.String({
        pattern: '^pm_[A-Za-z0-9_]+$',
        maxLength: 255,
        description: "With Stripe: the card to charge now (Stripe's PaymentMethod); default the subscription's default payment method",
      }),
    ),
    reference: t.Optional(Reference),
  },
  { examples: [{ payment_method_id: 'pm_card_visa' }, { reference: 'ACME-INV-000042' }] },
)

export const RecordTransferBody = t.Object(
  {
    amount: t.Optional(Amount("What arrived; default the invoice's amount remaining, never more")),
    reference: Reference,
  },
  { examples: [{ reference: 'BANK-2026-0042' }, { amount: 1500, reference: 'BANK-2026-0043' }] },
)

export const BounceTransferBody = t.Object(
  {
    reason: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        pattern: '\\S',
        description: "What the bank said: the payment's last_error.message (default: the transfer was returned or never arrived)",
      }),
    ),
  },
  { examples: [{}, { reason: 'Returned by the bank: account closed' }] },
)

export const RefundPaymentBody = t.Object(
  {
    amount: t.Optional(Amount('What to refund; default all that is left, never more')),
    reason: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: "Why; Stripe's own reasons (duplicate, fraudulent, requested_by_customer) are passed on to Stripe",
      }),
    ),
  },
  { examples: [{}, { amount: 1000, reason: 'requested_by_customer' }] },
)

const TimeFilter = (description: string) => t.Optional(t.String({ description: `RFC 3339; ${description}` }))

export const PaymentListQuery = t.Object({
  status: t.Optional(oneOf(PAYMENT_STATUSES)),
  invoice_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  created_after: TimeFilter('only payments created after it'),
  created_before: TimeFilter('only payments created before it'),
  ...pagingQuery(PAYMENT_LIST.sorts),
})
