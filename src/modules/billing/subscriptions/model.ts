// Request and response schemas of the subscription endpoints (the Subscription component).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { oneOf } from '../../../http/schema.ts'
import { BILLING_INTERVALS, COLLECTION_METHODS, PLAN_IDS, SUBSCRIPTION_STATUSES } from '../table.ts'

const Time = t.String({ format: 'date-time' })
const PaymentMethod = t.String({
  pattern: '^pm_[A-Za-z0-9_]{1,200}$',
  description: "A Stripe PaymentMethod (`pm_…`) of the organization's customer, charged automatically",
})

export const SUBSCRIPTION_EXAMPLE = {
  id: 'sub_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  plan: 'professional',
  price_id: 'price_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  currency: 'usd',
  interval: 'month',
  unit_amount: 4900,
  quantity: 3,
  status: 'active',
  collection_method: 'charge_automatically',
  current_period_start: '2026-01-31T09:30:00.000Z',
  current_period_end: '2026-02-28T09:30:00.000Z',
  billing_cycle_anchor: '2026-01-31T09:30:00.000Z',
  trial_start: null,
  trial_end: null,
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  cancellation_reason: null,
  default_payment_method_id: 'pm_1QxT5bLkdIwHu7ixkQ3p2s9Z',
  latest_invoice_id: 'in_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  past_due_since: null,
  entitlements: { plan: 'professional', rate_limit_per_minute: 1000, rate_limit_per_day: 100000 },
  metadata: {},
  created_at: '2026-01-31T09:30:00.000Z',
  updated_at: '2026-01-31T09:30:00.000Z',
}

export const SubscriptionBody = t.Object(
  {
    id: t.String(),
    organization_id: t.String(),
    plan: oneOf(PLAN_IDS),
    price_id: t.String(),
    currency: t.String({ description: 'Lowercase ISO 4217' }),
    interval: oneOf(BILLING_INTERVALS),
    unit_amount: Type.Integer({ description: "The price's amount per seat and interval, in minor units" }),
    quantity: Type.Integer({ description: 'Seats' }),
    status: oneOf(SUBSCRIPTION_STATUSES),
    collection_method: oneOf(COLLECTION_METHODS),
    current_period_start: Time,
    current_period_end: Time,
    billing_cycle_anchor: Time,
    trial_start: t.Nullable(Time),
    trial_end: t.Nullable(Time),
    cancel_at_period_end: t.Boolean(),
    canceled_at: t.Nullable(Time, { description: 'When the cancellation was asked for (also while cancel_at_period_end waits)' }),
    ended_at: t.Nullable(Time),
    cancellation_reason: t.Nullable(oneOf(['requested', 'payment_failed', 'incomplete_expired'] as const)),
    default_payment_method_id: t.Nullable(t.String()),
    latest_invoice_id: t.Nullable(t.String()),
    past_due_since: t.Nullable(Time, { description: 'The start of the grace period (past_due); null otherwise' }),
    entitlements: t.Object(
      { plan: oneOf(PLAN_IDS), rate_limit_per_minute: Type.Integer(), rate_limit_per_day: Type.Integer() },
      {
        description:
          "What the organization gets now: the plan while trialing, active or past_due, else Free, and the plan's request rates per user",
      },
    ),
    metadata: t.Record(t.String(), t.String()),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Subscription', examples: [SUBSCRIPTION_EXAMPLE] },
)

export const SaveSubscriptionBody = t.Object({
  plan: t.Optional(oneOf(PLAN_IDS, { description: 'Required to subscribe; free is refused (cancel to return to Free)' })),
  interval: t.Optional(oneOf(BILLING_INTERVALS, { description: "Default month (a change: the subscription's)" })),
  currency: t.Optional(t.String({ minLength: 3, maxLength: 3, description: 'ISO 4217; needed when the plan is priced in several' })),
  price_id: t.Optional(
    t.String({ minLength: 1, maxLength: 64, description: 'A price offered to the organization (instead of plan/currency/interval)' }),
  ),
  quantity: t.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Seats; default 1 (a change: the current)' })),
  collection_method: t.Optional(
    oneOf(COLLECTION_METHODS, {
      description: 'Default charge_automatically with the stripe provider, send_invoice with manual (which cannot charge)',
    }),
  ),
  default_payment_method_id: t.Optional(t.Nullable(PaymentMethod)),
  trial_days: t.Optional(Type.Integer({ minimum: 1, maximum: 730, description: 'A new subscription only: days of free trial' })),
  billing_cycle_anchor: t.Optional(
    t.String({
      format: 'date-time',
      description: 'A new subscription only: when its first (prorated) period ends; in the future, at most one interval ahead',
    }),
  ),
  metadata: t.Optional(
    t.Record(t.String({ minLength: 1, maxLength: 40 }), t.String({ maxLength: 500 }), {
      maxProperties: 50,
      description: 'Merged into the current metadata; an empty string removes a key',
    }),
  ),
})

export const CancelSubscriptionBody = t.Object({
  at_period_end: t.Optional(t.Boolean({ description: 'Default true: at the end of the current period; false: now' })),
})

export const ResumeSubscriptionBody = t.Object({
  default_payment_method_id: t.Optional(PaymentMethod),
})
