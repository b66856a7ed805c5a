// Plans and prices as the API returns them (Stripe's Price: unit_amount in minor units, lowercase
// currency, `active`), the plans always in the order free, starter, professional, enterprise.
import { isoTime } from '../../../lib/clock.ts'
import { PLAN_IDS } from '../table.ts'
import type { PlanRow, PriceRow } from './store.ts'

export function priceJson(row: PriceRow) {
  return {
    id: row.id,
    plan: row.plan_id,
    organization_id: row.organization_id,
    currency: row.currency,
    interval: row.billing_interval,
    unit_amount: Number(row.unit_amount),
    active: row.deactivated_at === null,
    created_at: isoTime(Number(row.created_at)),
  }
}

export function planJson(row: PlanRow, prices: readonly PriceRow[]) {
  return {
    id: row.id,
    name: row.name,
    rate_limit_per_minute: Number(row.rate_limit_per_minute),
    rate_limit_per_day: Number(row.rate_limit_per_day),
    prices: prices.filter((p) => p.plan_id === row.id).map(priceJson),
  }
}

export type PlanJson = ReturnType<typeof planJson>
export type PriceJson = ReturnType<typeof priceJson>

/** Every plan with its prices among `prices`, in the plans' order. */
export function plansJson(plans: readonly PlanRow[], prices: readonly PriceRow[]): PlanJson[] {
  const rank = (id: string) => (PLAN_IDS as readonly string[]).indexOf(id)
  return [...plans].sort((a, b) => rank(a.id) - rank(b.id)).map((plan) => planJson(plan, prices))
}
