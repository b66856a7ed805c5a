// Facts: one row per thing a report counts (a ticket created, a call answered, a survey answer), with its
// value (a duration in seconds, a score, an amount), its dimensions and the event that produced it. The
// fold writes them; every figure is an aggregate of facts, so any figure opens into its records.
import { addHistogramText, addToHistogram, Histogram, mergeHistograms, parseHistogram } from './histogram.ts'
import type { ReportFactsTable, ReportTotalsTable } from './table.ts'

/** Dimension values of a fact; a list (a ticket's tags) counts the fact once under each. */
export type Dims = Readonly<Record<string, string | readonly string[] | null>>

export interface Fact {
  /** The fact stream (`ticket.created`, `call.answered`…): what report metrics are computed from. */
  readonly stream: string
  readonly at: number
  readonly recordType: string
  readonly recordId: string
  /** The event's stream_seq: with the record, what makes the fact unique (folding twice writes it once). */
  readonly seq: number
  readonly value: number | null
  /** For a duration, when it began (business hours count from it); for a spread fact, its start. */
  readonly startedAt: number | null
  readonly businessValue?: number | null
  readonly dims: Dims
}

/** The sum of some facts: how many, their values' total and histogram, in calendar and business time. */
export interface Agg {
  n: number
  total: number
  businessTotal: number
  hist: Histogram
  businessHist: Histogram
}

export const emptyAgg = (): Agg => ({ n: 0, total: 0, businessTotal: 0, hist: new Histogram(), businessHist: new Histogram() })

/** Adds a fact to the sum (`weight` -1 takes it out again: a deleted record's). */
export function addFact(agg: Agg, fact: Pick<Fact, 'value' | 'businessValue'>, weight: 1 | -1 = 1): void {
  agg.n += weight
  if (fact.value !== null) {
    agg.total += weight * fact.value
    addToHistogram(agg.hist, fact.value, weight)
  }
  const business = fact.businessValue ?? null
  if (business !== null) {
    agg.businessTotal += weight * business
    addToHistogram(agg.businessHist, business, weight)
  }
}

export function mergeAgg(into: Agg, from: Agg): void {
  into.n += from.n
  into.total += from.total
  into.businessTotal += from.businessTotal
  mergeHistograms(into.hist, from.hist)
  mergeHistograms(into.businessHist, from.businessHist)
}

/** The values a fact is counted under for dimension `dim` ('' is the total: one value, ''). */
export function dimValues(fact: Pick<Fact, 'dims'>, dim: string): readonly string[] {
  if (dim === '') return ['']
  const value = fact.dims[dim]
  if (value === null || value === undefined) return ['none']
  return typeof value === 'string' ? [value] : value.length === 0 ? ['none'] : value
}

/** A stored fact as the fold made it. */
export function factOfRow(row: ReportFactsTable): Fact {
  return {
    stream: row.metric,
    at: Number(row.at),
    recordType: row.record_type,
    recordId: row.record_id,
    seq: Number(row.seq),
    value: row.value === null ? null : Number(row.value),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    businessValue: row.business_value === null ? null : Number(row.business_value),
    dims: JSON.parse(row.dims),
  }
}

/** A stored total as a sum. */
export function aggOfRow(row: Pick<ReportTotalsTable, 'n' | 'total' | 'business_total' | 'hist' | 'business_hist'>): Agg {
  return {
    n: Number(row.n),
    total: Number(row.total),
    businessTotal: Number(row.business_total),
    hist: parseHistogram(row.hist),
    businessHist: parseHistogram(row.business_hist),
  }
}

/** Adds a stored total to the sum, its histograms straight from their text. */
export function addTotal(agg: Agg, row: Pick<ReportTotalsTable, 'n' | 'total' | 'business_total' | 'hist' | 'business_hist'>): void {
  agg.n += Number(row.n)
  agg.total += Number(row.total)
  agg.businessTotal += Number(row.business_total)
  addHistogramText(agg.hist, row.hist)
  addHistogramText(agg.businessHist, row.business_hist)
}
