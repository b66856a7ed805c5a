// Money and billing periods without floats: amounts are integer minor units (cents), rounded half away
// from zero through BigInt, none beyond MAX_AMOUNT; periods are calendar intervals in UTC from the
// subscription's anchor.

/**
 * The most money one figure may hold, either way: a line, an invoice's subtotal, tax and total, a
 * credit balance, a payment, a refund — 10^13 minor units (100 billion dollars). 100 lines of it with
 * 100 % tax stay below 2^53, so every sum made on the way is exact before it is checked.
 */
export const MAX_AMOUNT = 10_000_000_000_000

/** A whole number of minor units within ±MAX_AMOUNT. */
export function isWithinMaxAmount(amount: number): boolean {
  return Number.isSafeInteger(amount) && Math.abs(amount) <= MAX_AMOUNT
}

/** MAX_AMOUNT for messages, with its digits grouped (10,000,000,000,000). */
export const MAX_AMOUNT_TEXT = MAX_AMOUNT.toLocaleString('en')

/** round(amount × numerator / denominator), half away from zero, exactly (BigInt: no float in between). */
export function mulDiv(amount: number, numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0)
    throw new RangeError(`mulDiv: whole numbers only (${amount} × ${numerator} / ${denominator})`)
  const product = BigInt(amount) * BigInt(numerator)
  const d = BigInt(denominator)
  const negative = product < 0n
  const magnitude = negative ? -product : product
  const rounded = (magnitude * 2n + d) / (2n * d)
  return Number(negative ? -rounded : rounded)
}

/** The part of `amount` for `remainingMs` of a `periodMs` period (Stripe's time-based proration). */
export function prorate(amount: number, remainingMs: number, periodMs: number): number {
  return mulDiv(amount, Math.max(0, Math.min(remainingMs, periodMs)), periodMs)
}

/** Tax on `subtotal` at `rateBps` basis points (2000 = 20 %). */
export function taxOf(subtotal: number, rateBps: number): number {
  return mulDiv(subtotal, rateBps, 10_000)
}

const DAY_MS = 86_400_000

/**
 * The end of period `n` (1 for the first) of a subscription anchored at `anchor`: the anchor plus n
 * months or years in UTC, the day clamped to the month's last (an anchor on the 31st ends February's
 * period on the 28th or 29th and March's on the 31st again).
 */
export function periodEnd(anchor: number, interval: 'month' | 'year', n: number): number {
  const a = new Date(anchor)
  const months = interval === 'month' ? n : 12 * n
  const year = a.getUTCFullYear() + Math.floor((a.getUTCMonth() + months) / 12)
  const month = (a.getUTCMonth() + months) % 12
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const day = Math.min(a.getUTCDate(), lastDay)
  const timeOfDay = anchor - Date.UTC(a.getUTCFullYear(), a.getUTCMonth(), a.getUTCDate())
  return Date.UTC(year, month, day) + timeOfDay
}

/** The first period end after `after` of a subscription anchored at `anchor` (the anchor itself when it is later). */
export function nextPeriodEnd(anchor: number, interval: 'month' | 'year', after: number): number {
  if (anchor > after) return anchor
  // A first guess from the average length, then exact steps: at most a couple of iterations.
  let n = Math.max(1, Math.floor((after - anchor) / ((interval === 'month' ? 30.436875 : 365.2425) * DAY_MS)))
  while (n > 1 && periodEnd(anchor, interval, n - 1) > after) n--
  while (periodEnd(anchor, interval, n) <= after) n++
  return periodEnd(anchor, interval, n)
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()))

/** A currency as stored: lowercase ISO 4217 (`usd`), or undefined when it is not one. */
export function normalizeCurrency(text: string): string | undefined {
  const lower = text.trim().toLowerCase()
  return /^[a-z]{3}$/.test(lower) && CURRENCIES.has(lower) ? lower : undefined
}

/** Digits after the decimal point of a currency's minor unit (2 for usd, 0 for jpy, 3 for kwd). */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2
}

/** `1234.50 USD`-style text of an amount in minor units, built from the integer's digits (never a float). */
export function formatMoney(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency)
  const text = Math.abs(amount)
    .toString()
    .padStart(digits + 1, '0')
  const whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : ''
  return `${amount < 0 ? '-' : ''}${whole}${fraction} ${currency.toUpperCase()}`
}
