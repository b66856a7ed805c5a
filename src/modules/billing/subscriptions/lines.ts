// The invoice lines of a subscription, pure: a period of its price × quantity (prorated when the
// period is shorter than a full interval: a billing_cycle_anchor's first period), and a change's
// proration as Stripe's always_invoice: a credit for the unused part of the old price × quantity and a
// charge for the rest of the period on the new one, over the exact milliseconds left. Price × quantity
// is at most MAX_PERIOD_AMOUNT (fields.ts), so every amount here is exact.
import type { NewInvoiceLine } from '../invoices/collect.ts'
import { prorate } from '../money.ts'
import type { BillingInterval, PlanId } from '../table.ts'

/** What a subscription is billed for: its plan's price and seats. */
export interface Billed {
  plan: PlanId
  planName: string
  priceId: string
  unitAmount: number
  quantity: number
}

/** `t` one interval earlier in UTC, the day clamped to the month's last (31 March → 28 or 29 February). */
export function oneIntervalBefore(t: number, interval: BillingInterval): number {
  const d = new Date(t)
  const months = d.getUTCFullYear() * 12 + d.getUTCMonth() - (interval === 'month' ? 1 : 12)
  const year = Math.floor(months / 12)
  const month = months - year * 12
  const day = Math.min(d.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate())
  return Date.UTC(year, month, day) + (t - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()))
}

/**
 * Where the full interval of a period ending at `end` starts: the period's own start, except for a
 * first period shortened by billing_cycle_anchor (it ends at the anchor): one interval before it.
 */
export function fullPeriodStart(period: { start: number; end: number; anchor: number; interval: BillingInterval }): number {
  return period.end === period.anchor ? Math.min(period.start, oneIntervalBefore(period.end, period.interval)) : period.start
}

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const day = (ms: number) => DATE.format(new Date(ms))

/** The line of one period [start, end) of `billed`, prorated over [fullStart, end) when it is shorter. */
export function periodLine(billed: Billed, start: number, end: number, fullStart = start): NewInvoiceLine {
  const full = billed.unitAmount * billed.quantity
  return {
    kind: 'subscription',
    description: `${billed.planName} × ${billed.quantity} (${day(start)} – ${day(end)})`,
    plan_id: billed.plan,
    price_id: billed.priceId,
    quantity: billed.quantity,
    unit_amount: billed.unitAmount,
    amount: start === fullStart ? full : prorate(full, end - start, end - fullStart),
    period_start: start,
    period_end: end,
  }
}

/** The credit for the unused part [now, end) of `old` over the full period [fullStart, end): a negative amount. */
export function unusedCreditLine(old: Billed, now: number, end: number, fullStart: number): NewInvoiceLine {
  return {
    kind: 'proration',
    description: `Unused time on ${old.planName} × ${old.quantity} after ${day(now)}`,
    plan_id: old.plan,
    price_id: old.priceId,
    quantity: old.quantity,
    unit_amount: old.unitAmount,
    amount: -prorate(old.unitAmount * old.quantity, end - now, end - fullStart),
    period_start: now,
    period_end: end,
  }
}

/** The charge for the remaining part [now, end) of `next` over the full period [fullStart, end). */
export function remainingChargeLine(next: Billed, now: number, end: number, fullStart: number): NewInvoiceLine {
  return {
    kind: 'proration',
    description: `Remaining time on ${next.planName} × ${next.quantity} after ${day(now)}`,
    plan_id: next.plan,
    price_id: next.priceId,
    quantity: next.quantity,
    unit_amount: next.unitAmount,
    amount: prorate(next.unitAmount * next.quantity, end - now, end - fullStart),
    period_start: now,
    period_end: end,
  }
}
