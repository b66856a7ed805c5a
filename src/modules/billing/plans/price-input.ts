// A price as the operator gives it (API or CLI): a currency (ISO 4217, stored lowercase), an interval
// and a whole amount in minor units. Checked once for both, every problem named by its field; the
// CLI's `CUR:INTERVAL:AMOUNT` text parsed here too.
import { validationError, type FieldError } from '../../../errors.ts'
import { normalizeCurrency } from '../money.ts'
import { BILLING_INTERVALS, type BillingInterval } from '../table.ts'

/** The largest unit_amount taken: far above any real price, far below 2^53 (money stays exact). */
export const MAX_UNIT_AMOUNT = 999_999_999_999
/** Prices one request may set. */
export const MAX_PRICES_PER_REQUEST = 20

export interface PriceInput {
  currency: string
  interval: string
  unit_amount: number
}

export interface CheckedPrice {
  currency: string
  interval: BillingInterval
  unitAmount: number
}

/** The prices normalized, or 400 naming each bad field (`prices[1].currency`); one price per currency and interval. */
export function checkPrices(field: string, prices: readonly PriceInput[]): CheckedPrice[] {
  const errors: FieldError[] = []
  const checked: CheckedPrice[] = []
  const seen = new Set<string>()
  if (prices.length > MAX_PRICES_PER_REQUEST) errors.push({ field, message: `at most ${MAX_PRICES_PER_REQUEST} prices at once` })
  prices.forEach((price, i) => {
    const at = `${field}.${i}`
    const currency = normalizeCurrency(String(price.currency))
    if (currency === undefined) errors.push({ field: `${at}.currency`, message: 'must be an ISO 4217 currency code, e.g. usd' })
    const interval = (BILLING_INTERVALS as readonly string[]).includes(price.interval) ? (price.interval as BillingInterval) : undefined
    if (interval === undefined) errors.push({ field: `${at}.interval`, message: `must be one of: ${BILLING_INTERVALS.join(', ')}` })
    const amount = price.unit_amount
    if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_UNIT_AMOUNT)
      errors.push({ field: `${at}.unit_amount`, message: `must be a whole number of minor units from 0 to ${MAX_UNIT_AMOUNT}` })
    if (currency === undefined || interval === undefined) return
    const key = `${currency}/${interval}`
    if (seen.has(key)) errors.push({ field: at, message: `a second price in ${currency} per ${interval}` })
    seen.add(key)
    checked.push({ currency, interval, unitAmount: amount })
  })
  if (errors.length > 0) throw validationError(errors)
  return checked
}

const PRICE_FORMAT = `--price takes CURRENCY:INTERVAL:AMOUNT in minor units, e.g. usd:month:2900 (INTERVAL: ${BILLING_INTERVALS.join(' or ')})`

/** The CLI's `usd:month:2900` as a price (currency normalized), or the reason it is not one. */
export function parsePrice(text: string): PriceInput | string {
  const match = /^([^:]*):([^:]*):([^:]*)$/.exec(text)
  if (!match) return PRICE_FORMAT
  const [, code, interval, amount] = match as unknown as [string, string, string, string]
  const currency = normalizeCurrency(code)
  if (currency === undefined) return `--price ${text}: ${code} is not an ISO 4217 currency code`
  if (!(BILLING_INTERVALS as readonly string[]).includes(interval)) return `--price ${text}: the interval must be month or year`
  if (!/^\d{1,12}$/.test(amount) || Number(amount) > MAX_UNIT_AMOUNT)
    return `--price ${text}: the amount must be a whole number of minor units from 0 to ${MAX_UNIT_AMOUNT}`
  return { currency, interval, unit_amount: Number(amount) }
}
