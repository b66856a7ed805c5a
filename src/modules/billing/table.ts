// The billing module's tables as rows (Kysely), and the value lists of their status columns. The
// columns are declared by src/db/migrations/0019_billing.sql. Money is integer minor units.

export const PLAN_IDS = ['free', 'starter', 'professional', 'enterprise'] as const
export type PlanId = (typeof PLAN_IDS)[number]

export const BILLING_INTERVALS = ['month', 'year'] as const
export type BillingInterval = (typeof BILLING_INTERVALS)[number]

/** Stripe's subscription statuses. */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

export const COLLECTION_METHODS = ['charge_automatically', 'send_invoice'] as const
export type CollectionMethod = (typeof COLLECTION_METHODS)[number]

/** Stripe's invoice statuses. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const BILLING_REASONS = ['subscription_create', 'subscription_cycle', 'subscription_update', 'manual'] as const
export type BillingReason = (typeof BILLING_REASONS)[number]

export const LINE_KINDS = ['subscription', 'proration', 'manual'] as const
export type LineKind = (typeof LINE_KINDS)[number]

/** Stripe's PaymentIntent statuses. */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const PAYMENT_PROVIDERS = ['manual', 'stripe'] as const
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number]

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]

/** What happens to a subscription whose renewal payment failed every retry (an organization setting). */
export const RETRIES_EXHAUSTED_ACTIONS = ['canceled', 'unpaid'] as const
export type RetriesExhaustedAction = (typeof RETRIES_EXHAUSTED_ACTIONS)[number]

/** A row of plans: the four plans and their request rates per user. */
export interface PlansTable {
  id: PlanId
  name: string
  rate_limit_per_minute: number
  rate_limit_per_day: number
  updated_at: number
}

/** A row of plan_prices (`price_…`): immutable but for deactivated_at. */
export interface PlanPricesTable {
  id: string
  plan_id: PlanId
  /** An Enterprise price of one organization; null: offered to every organization. */
  organization_id: string | null
  /** Lowercase ISO 4217 (`usd`). */
  currency: string
  billing_interval: BillingInterval
  /** Per seat, minor units. */
  unit_amount: number
  created_at: number
  /** Set when another price replaced it; null: active. */
  deactivated_at: number | null
}

/** A row of billing_accounts: one per organization, made on first use. */
export interface BillingAccountsTable {
  organization_id: string
  /** Basis points: 2000 is 20 %. Set by the operator. */
  tax_rate_bps: number
  on_retries_exhausted: RetriesExhaustedAction
  /** send_invoice: days from finalization to the due date. */
  days_until_due: number
  /** The number the next finalized invoice takes (1 first). */
  next_invoice_number: number
  /** What the organization is owed, in balance_currency (minor units, >= 0). */
  credit_balance: number
  balance_currency: string | null
  billing_email: string | null
  billing_name: string | null
  billing_address: string | null
  /** Stripe's customer (`cus_…`) when the provider is Stripe. */
  provider_customer_id: string | null
  created_at: number
  updated_at: number
}

/** A row of subscriptions (`sub_…`). */
export interface SubscriptionsTable {
  id: string
  organization_id: string
  plan_id: PlanId
  price_id: string
  currency: string
  billing_interval: BillingInterval
  unit_amount: number
  quantity: number
  status: SubscriptionStatus
  collection_method: CollectionMethod
  current_period_start: number
  current_period_end: number
  /** Periods end at this time plus whole intervals (a 31st anchor ends February's on the 28th or 29th). */
  billing_cycle_anchor: number
  trial_start: number | null
  trial_end: number | null
  cancel_at_period_end: boolean | number
  canceled_at: number | null
  /** Set when it reaches canceled or incomplete_expired: it is then no longer the current one. */
  ended_at: number | null
  /** requested | payment_failed | incomplete_expired */
  cancellation_reason: string | null
  /** Stripe's PaymentMethod (`pm_…`) charged automatically. */
  default_payment_method_id: string | null
  latest_invoice_id: string | null
  /** When it became past_due (the start of the grace period); null otherwise. */
  past_due_since: number | null
  /** JSON object of strings. */
  metadata: string
  created_at: number
  updated_at: number
}

/** A row of invoices (`in_…`). */
export interface InvoicesTable {
  id: string
  organization_id: string
  subscription_id: string | null
  /** Assigned on finalization from the organization's gap-free sequence. */
  number: string | null
  status: InvoiceStatus
  billing_reason: BillingReason
  collection_method: CollectionMethod
  currency: string
  subtotal: number
  tax_rate_bps: number
  tax: number
  total: number
  /** Credit balance taken off the total. */
  applied_balance: number
  amount_due: number
  amount_paid: number
  amount_remaining: number
  period_start: number | null
  period_end: number | null
  due_date: number | null
  attempt_count: number
  next_payment_attempt: number | null
  first_failed_at: number | null
  /** The organization's billing details, copied on finalization (the PDF shows these). */
  customer_name: string | null
  customer_email: string | null
  customer_address: string | null
  description: string | null
  finalized_at: number | null
  paid_at: number | null
  voided_at: number | null
  marked_uncollectible_at: number | null
  metadata: string
  created_at: number
  updated_at: number
}

/** A row of invoice_lines (`il_…`). */
export interface InvoiceLinesTable {
  id: string
  invoice_id: string
  organization_id: string
  line_number: number
  kind: LineKind
  description: string
  plan_id: PlanId | null
  price_id: string | null
  quantity: number
  unit_amount: number
  /** Negative for a credit (the unused part of the old plan). */
  amount: number
  period_start: number | null
  period_end: number | null
}

/** A row of payments (`pi_…`): one PaymentIntent per invoice collection, retried in place. */
export interface PaymentsTable {
  id: string
  organization_id: string
  invoice_id: string | null
  amount: number
  currency: string
  status: PaymentStatus
  provider: PaymentProvider
  /** Stripe's PaymentIntent id. */
  provider_payment_id: string | null
  /** JSON {type, last4, brand} or null. */
  payment_method: string | null
  /** A bank transfer's reference. */
  reference: string | null
  /** JSON {code, message} or null. */
  last_error: string | null
  /** JSON array of {attempted_at, outcome, error}. */
  attempts: string
  amount_refunded: number
  /** A user id, `operator`, or null (the cron loop, Stripe). */
  recorded_by: string | null
  succeeded_at: number | null
  canceled_at: number | null
  created_at: number
  updated_at: number
}

/** A row of refunds (`re_…`). */
export interface RefundsTable {
  id: string
  organization_id: string
  payment_id: string
  amount: number
  currency: string
  status: RefundStatus
  reason: string | null
  provider_refund_id: string | null
  created_at: number
  updated_at: number
}

/** A row of stripe_events: Stripe's events already handled. */
export interface StripeEventsTable {
  /** Stripe's `evt_…` */
  id: string
  type: string
  organization_id: string | null
  received_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    plans: PlansTable
    plan_prices: PlanPricesTable
    billing_accounts: BillingAccountsTable
    subscriptions: SubscriptionsTable
    invoices: InvoicesTable
    invoice_lines: InvoiceLinesTable
    payments: PaymentsTable
    refunds: RefundsTable
    stripe_events: StripeEventsTable
  }
}
