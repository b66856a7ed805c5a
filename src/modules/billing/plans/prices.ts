// The prices an organization may subscribe to: the public ones and its own Enterprise prices, its own
// winning over a public one of the same plan, currency and interval. Never another organization's.
import type { Queries } from '../../../db/database.ts'
import type { BillingInterval, PlanId, PlanPricesTable } from '../table.ts'
import { listOfferedPlanPrices, type PriceRow } from './store.ts'

/** The organization's view of a set of active prices: per plan, currency and interval, its own price else the public one. */
export function offeredOnly(prices: readonly PriceRow[], organizationId: string): PriceRow[] {
  const own = new Set(
    prices.filter((p) => p.organization_id === organizationId).map((p) => `${p.plan_id}/${p.currency}/${p.billing_interval}`),
  )
  return prices.filter(
    (p) =>
      p.organization_id === organizationId || (p.organization_id === null && !own.has(`${p.plan_id}/${p.currency}/${p.billing_interval}`)),
  )
}

/**
 * The active price of `plan` the organization may subscribe to. With `priceId`: that price if it is
 * active, of this plan, and offered to the organization (not a public price its own price of the same
 * currency and interval replaces: GET /api/v1/billing/plans does not show that one). Otherwise the
 * offered prices of the plan in `currency` and `interval` (either may be left out): the price when
 * exactly one remains, else undefined (no price, or a choice the caller must make).
 */
export async function findOfferedPrice(
  db: Queries,
  input: { organizationId: string; plan: PlanId; currency?: string; interval?: BillingInterval; priceId?: string },
): Promise<PlanPricesTable | undefined> {
  const { organizationId, plan } = input
  const offered = offeredOnly(await listOfferedPlanPrices(db, organizationId, plan), organizationId)
  if (input.priceId !== undefined) return offered.find((p) => p.id === input.priceId)
  const currency = input.currency?.trim().toLowerCase()
  const candidates = offered.filter(
    (p) => (currency === undefined || p.currency === currency) && (input.interval === undefined || p.billing_interval === input.interval),
  )
  return candidates.length === 1 ? candidates[0] : undefined
}
