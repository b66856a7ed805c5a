// Request rates by plan (spec "Limits"). The plans table holds each plan's rates (seeded by migration
// 0019 with PLAN_RATES; changed by `switchboard plan set` or the operator API); an organization's own
// rates (`switchboard org set-limits`) win over its plan's. The request path reads both in one column
// (RATES_COLUMN), so any change applies on the organization's very next request.

import type { Rates } from '../../context.ts'

export type { Rates } from '../../context.ts'

/**
 * The rates migration 0019 seeds the plans table with (the spec's). The table's are the ones in force;
 * Free's here answer only for an organization whose plan has no row (never the case: the four are seeded).
 */
export const PLAN_RATES: Readonly<Record<'free' | 'starter' | 'professional' | 'enterprise', Rates>> = Object.freeze({
  free: Object.freeze({ perMinute: 60, perDay: 1_000 }),
  starter: Object.freeze({ perMinute: 300, perDay: 10_000 }),
  professional: Object.freeze({ perMinute: 1_000, perDay: 100_000 }),
  enterprise: Object.freeze({ perMinute: 1_000, perDay: 100_000 }),
})

/** Bounds of set-limits values and of a plan's rates: far above what one server can serve, so only typos are refused. */
export const MAX_PER_MINUTE = 1_000_000
export const MAX_PER_DAY = 100_000_000

/**
 * SQL for one column of an organizations row (`SELECT ${RATES_COLUMN} FROM organizations WHERE id = …`):
 * its effective rates per user as `per_minute/per_day`, each its own (set-limits) else its plan row's.
 * One scalar subquery by the plans primary key; the CASTs keep `||` and coalesce portable to PostgreSQL.
 */
export const RATES_COLUMN =
  "(SELECT CAST(coalesce(organizations.rate_limit_per_minute, plans.rate_limit_per_minute) AS TEXT) || '/' || CAST(coalesce(organizations.rate_limit_per_day, plans.rate_limit_per_day) AS TEXT) FROM plans WHERE plans.id = organizations.plan)"

// A handful of distinct rate pairs in practice: one frozen object each.
const fromText = new Map<string, Rates>()

/** Rates from RATES_COLUMN's text (`60/1000`); null (no plan row) is Free's seeded rates. */
export function ratesFromColumn(text: string | null): Rates {
  if (text === null) return PLAN_RATES.free
  let rates = fromText.get(text)
  if (rates === undefined) {
    const slash = text.indexOf('/')
    const perMinute = Number(text.slice(0, slash))
    const perDay = Number(text.slice(slash + 1))
    if (slash < 1 || !Number.isSafeInteger(perMinute) || !Number.isSafeInteger(perDay)) return PLAN_RATES.free
    if (fromText.size > 10_000) fromText.clear()
    fromText.set(text, (rates = Object.freeze({ perMinute, perDay })))
  }
  return rates
}
