// The fields of a subscribe or change request checked and resolved: the price offered for the plan,
// currency and interval (or price_id), what price × quantity may bill a period, the collection method
// the payment provider allows, the billing_cycle_anchor's bounds and the metadata merged as Stripe's
// (an empty string removes a key).
import type { Config } from '../../../config.ts'
import type { Queries } from '../../../db/database.ts'
import { validationError } from '../../../errors.ts'
import { MAX_TAX_RATE_BPS } from '../accounts/settings.ts'
import { MAX_AMOUNT, MAX_AMOUNT_TEXT, normalizeCurrency, periodEnd } from '../money.ts'
import { findOfferedPrice, offeredOnly } from '../plans/prices.ts'
import { listOfferedPlanPrices } from '../plans/store.ts'
import type { BillingInterval, CollectionMethod, PlanId, PlanPricesTable } from '../table.ts'

export interface SubscribeInput {
  plan?: PlanId
  interval?: BillingInterval
  currency?: string
  price_id?: string
  quantity?: number
  collection_method?: CollectionMethod
  default_payment_method_id?: string | null
  trial_days?: number
  billing_cycle_anchor?: string
  metadata?: Record<string, string>
}

/** The price the organization gets for `plan` in `currency` per `interval` (or `priceId`), else 400 naming what is offered. */
export async function resolvePrice(
  db: Queries,
  organizationId: string,
  wanted: { plan: PlanId; interval?: BillingInterval; currency?: string; priceId?: string },
): Promise<PlanPricesTable> {
  const { plan, interval } = wanted
  if (plan === 'free') throw validationError([{ field: 'plan', message: 'Free has no price: cancel the subscription to return to Free' }])
  const currency = wanted.currency === undefined ? undefined : normalizeCurrency(wanted.currency)
  if (wanted.currency !== undefined && currency === undefined)
    throw validationError([{ field: 'currency', message: 'must be an ISO 4217 currency code (usd, eur…)' }])
  if (wanted.priceId !== undefined) {
    const price = await findOfferedPrice(db, { organizationId, plan, priceId: wanted.priceId })
    if (!price)
      throw validationError([{ field: 'price_id', message: `is not an active price of the ${plan} plan offered to the organization` }])
    if (interval !== undefined && price.billing_interval !== interval)
      throw validationError([{ field: 'interval', message: `price ${price.id} is billed per ${price.billing_interval}` }])
    if (currency !== undefined && price.currency !== currency)
      throw validationError([{ field: 'currency', message: `price ${price.id} is in ${price.currency}` }])
    return price
  }
  const price = await findOfferedPrice(db, { organizationId, plan, currency, interval })
  if (price) return price
  const offered = offeredOnly(await listOfferedPlanPrices(db, organizationId, plan), organizationId)
  const list = offered.map((p) => `${p.currency} per ${p.billing_interval}`).join(', ')
  throw validationError(
    [{ field: 'plan', message: `no single price of ${plan} in ${currency ?? 'one currency'} per ${interval ?? 'interval'}` }],
    `No price of the ${plan} plan is offered in ${currency ?? '(currency not given)'} per ${interval ?? '(interval not given)'}; offered: ${list || 'none'}`,
  )
}

/**
 * The most a subscription bills per period before tax: its invoices (a period, or a change's credit and
 * charge) then stay within MAX_AMOUNT whatever tax rate the operator sets later (at most 100 %), so a
 * renewal the cron loop makes can never be refused for its size.
 */
export const MAX_PERIOD_AMOUNT = Math.floor((MAX_AMOUNT * 10_000) / (10_000 + MAX_TAX_RATE_BPS))

/** price × quantity within MAX_PERIOD_AMOUNT, else 400 naming quantity. */
export function checkPeriodAmount(unitAmount: number, quantity: number): void {
  if (unitAmount * quantity <= MAX_PERIOD_AMOUNT) return
  throw validationError([
    {
      field: 'quantity',
      message: `quantity × the price's unit_amount (${quantity} × ${unitAmount}) is beyond ${MAX_PERIOD_AMOUNT.toLocaleString('en')} minor units, the most a subscription bills per period (so that with tax its invoices stay within ${MAX_AMOUNT_TEXT})`,
    },
  ])
}

/** The collection method asked for, or the provider's default; charge_automatically needs the stripe provider. */
export function collectionMethodOf(config: Pick<Config, 'billing'>, asked: CollectionMethod | undefined): CollectionMethod {
  const method = asked ?? (config.billing.provider === 'stripe' ? 'charge_automatically' : 'send_invoice')
  if (method === 'charge_automatically' && config.billing.provider !== 'stripe')
    throw validationError([
      {
        field: 'collection_method',
        message: 'charge_automatically needs the stripe payment provider; this server uses manual (send_invoice)',
      },
    ])
  return method
}

/** The first period's end set by billing_cycle_anchor: after `now`, at most one interval ahead. */
export function anchorOf(text: string, now: number, interval: BillingInterval): number {
  const anchor = Date.parse(text)
  const latest = periodEnd(now, interval, 1)
  if (!Number.isFinite(anchor)) throw validationError([{ field: 'billing_cycle_anchor', message: 'must be an RFC 3339 time' }])
  if (anchor <= now || anchor > latest)
    throw validationError([
      {
        field: 'billing_cycle_anchor',
        message: `must be in the future and at most one ${interval} ahead (by ${new Date(latest).toISOString()})`,
      },
    ])
  return anchor
}

/** Metadata merged into `current` (JSON text) as Stripe's: a key set to '' is removed. */
export function mergedMetadata(current: string, changes: Record<string, string> | undefined): string {
  if (changes === undefined) return current
  const merged: Record<string, string> = { ...(JSON.parse(current) as Record<string, string>) }
  for (const [key, value] of Object.entries(changes)) {
    if (value === '') delete merged[key]
    else merged[key] = value
  }
  if (Object.keys(merged).length > 50) throw validationError([{ field: 'metadata', message: 'holds at most 50 keys' }])
  return JSON.stringify(merged)
}
