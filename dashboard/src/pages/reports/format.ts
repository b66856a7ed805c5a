// Report figures in words: a number by its unit (a count, a duration, a share, a score), and a change as
// words with an arrow, so that the direction never rests on colour or on the arrow alone.

export interface Duration {
  count: number
  mean: number | null
  p50: number | null
  p90: number | null
}

export type Value = number | null | Duration | undefined

/** The number a value is drawn and compared on: the value, or a duration's mean (as the API compares). */
export function headline(value: Value): number | null {
  if (value === undefined || value === null) return null
  return typeof value === 'number' ? value : value.mean
}

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })
const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** Seconds as "2 h 5 min", "3 min 20 s", "45 s". */
export function duration(seconds: number): string {
  const s = Math.round(Math.abs(seconds))
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`
  if (m > 0) return rest > 0 ? `${m} min ${rest} s` : `${m} min`
  return `${rest} s`
}

/** One number of a metric of `unit`. */
export function number(n: number | null, unit: string): string {
  if (n === null) return 'no value'
  switch (unit) {
    case 'count':
      return count.format(n)
    case 'seconds':
      return duration(n)
    case 'ratio':
      return percent.format(n)
    case 'minor_units':
      return money.format(n / 100)
    default:
      return decimal.format(n)
  }
}

/** A figure as words; a duration as its mean. */
export function figure(value: Value, unit: string): string {
  return number(headline(value), unit)
}

/** A duration's other numbers: "12 counted, median 30 s, 90th percentile 2 min". */
export function spread(value: Value): string | undefined {
  if (value === null || value === undefined || typeof value === 'number' || value.count === 0) return undefined
  const parts = [`${count.format(value.count)} counted`]
  if (value.p50 !== null) parts.push(`median ${duration(value.p50)}`)
  if (value.p90 !== null) parts.push(`90th percentile ${duration(value.p90)}`)
  return parts.join(', ')
}

/** The change from the previous figure in words, with an arrow that only repeats them. */
export function change(c: { difference: number; ratio: number | null } | null | undefined, unit: string): { arrow: string; words: string } {
  if (!c) return { arrow: '', words: 'nothing to compare with' }
  if (c.difference === 0) return { arrow: '→', words: 'no change' }
  const by = unit === 'ratio' ? `${decimal.format(Math.abs(c.difference) * 100)} points` : number(Math.abs(c.difference), unit)
  const share = c.ratio === null ? '' : ` (${c.ratio > 0 ? '+' : '−'}${percent.format(Math.abs(c.ratio))})`
  return c.difference > 0 ? { arrow: '▲', words: `up ${by}${share}` } : { arrow: '▼', words: `down ${by}${share}` }
}

/** A time of the API on the wall clocks of `zone`. */
export function timeIn(at: string, zone: string): string {
  return new Date(at).toLocaleString(undefined, { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' })
}

/** A series bucket's label made shorter: an hour's "2026-03-08T03:00-04:00" as "2026-03-08 03:00". */
export function bucketLabel(label: string): string {
  return label.length > 16 && label[10] === 'T' ? `${label.slice(0, 10)} ${label.slice(11, 16)}` : label
}
