// Pieces the metric families share: reading times from event data, and turning aggregates into values.
import type { Agg } from '../facts.ts'
import { countAtMost, countOf, percentiles } from '../histogram.ts'
import type { DurationValue, MetricParams } from '../metric.ts'

/** Epoch ms of an ISO time in event data (null stays null). */
export function ms(iso: string | null | undefined): number | null {
  return iso === null || iso === undefined ? null : Date.parse(iso)
}

/** Whole seconds from `from` to `to` (ms), never negative. */
export function seconds(from: number, to: number): number {
  return Math.max(0, Math.round((to - from) / 1000))
}

export const count = (stream: string) => (aggs: ReadonlyMap<string, Agg>) => aggs.get(stream)?.n ?? 0

export function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : Math.round((numerator / denominator) * 10_000) / 10_000
}

/** Count, mean, p50 and p90 of a duration stream, in calendar or business time. */
export const duration =
  (stream: string) =>
  (aggs: ReadonlyMap<string, Agg>, params: MetricParams): DurationValue => {
    const agg = aggs.get(stream)
    if (!agg || agg.n === 0) return { count: 0, mean: null, p50: null, p90: null }
    const business = params.hours === 'business'
    const hist = business ? agg.businessHist : agg.hist
    const valued = countOf(hist)
    const total = business ? agg.businessTotal : agg.total
    const [p50, p90] = percentiles(hist, [50, 90])
    return { count: valued, mean: valued === 0 ? null : Math.round((total / valued) * 10) / 10, p50: p50!, p90: p90! }
  }

/** How many of a stream's values are at most `limit`. */
export function atMost(aggs: ReadonlyMap<string, Agg>, stream: string, limit: number): number {
  const agg = aggs.get(stream)
  return agg ? countAtMost(agg.hist, limit) : 0
}

/** The mean of a stream's values (scores). */
export function mean(aggs: ReadonlyMap<string, Agg>, stream: string): number | null {
  const agg = aggs.get(stream)
  return !agg || agg.n === 0 ? null : Math.round((agg.total / agg.n) * 100) / 100
}
