// A subscription as the API and its events (data.subscription) show it: Stripe's fields, times in
// RFC 3339, money in minor units, and what it entitles the organization to (plan and request rates).
import type { Queries } from '../../../db/database.ts'
import { isoTime } from '../../../lib/clock.ts'
import { entitledPlan } from '../plans/entitlement.ts'
import { findPlanRates } from '../plans/store.ts'
import type { PlanId } from '../table.ts'
import type { CancellationReason } from './moves.ts'
import type { SubscriptionRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

export interface Entitlements {
  plan: PlanId
  rate_limit_per_minute: number
  rate_limit_per_day: number
}

export function subscriptionJson(row: SubscriptionRow, entitlements: Entitlements) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    plan: row.plan_id,
    price_id: row.price_id,
    currency: row.currency,
    interval: row.billing_interval,
    unit_amount: Number(row.unit_amount),
    quantity: Number(row.quantity),
    status: row.status,
    collection_method: row.collection_method,
    current_period_start: isoTime(Number(row.current_period_start)),
    current_period_end: isoTime(Number(row.current_period_end)),
    billing_cycle_anchor: isoTime(Number(row.billing_cycle_anchor)),
    trial_start: time(row.trial_start),
    trial_end: time(row.trial_end),
    cancel_at_period_end: Boolean(row.cancel_at_period_end),
    canceled_at: time(row.canceled_at),
    ended_at: time(row.ended_at),
    cancellation_reason: row.cancellation_reason as CancellationReason | null,
    default_payment_method_id: row.default_payment_method_id,
    latest_invoice_id: row.latest_invoice_id,
    past_due_since: time(row.past_due_since),
    entitlements,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type SubscriptionJson = ReturnType<typeof subscriptionJson>

/** The subscription's JSON with its entitlements read from the plans (through `db`: a transaction's or the read connection). */
export async function subscriptionView(db: Queries, row: SubscriptionRow): Promise<SubscriptionJson> {
  const plan = entitledPlan(row.status, row.plan_id)
  return subscriptionJson(row, { plan, ...(await findPlanRates(db, plan)) })
}
