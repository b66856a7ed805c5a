// Adding a fold batch's sums to the stored totals: counts and sums are added by the statement itself;
// only totals with a histogram are read, merged and written whole (the fold's lock keeps that safe).
import type { Tx } from '../../db/database.ts'
import { type Agg, aggOfRow, emptyAgg, mergeAgg } from './facts.ts'
import { totalKey } from './fold.ts'
import { histogramText } from './histogram.ts'
import { saveTotals, totalsAround } from './store.ts'
import type { ReportTotalsTable } from './table.ts'

interface TotalChange {
  metric: string
  dim: string
  dimValue: string
  span: string
  start: number
  delta: Agg
}

export async function addToTotals(tx: Tx, organizationId: string, deltas: Map<string, Agg>): Promise<void> {
  const changes: TotalChange[] = [...deltas].map(([key, delta]) => {
    const [metric, dim, dimValue, span, start] = key.split('\u0000') as [string, string, string, string, string]
    return { metric, dim, dimValue, span, start: Number(start), delta }
  })
  const row = (change: TotalChange, agg: Agg): ReportTotalsTable => ({
    organization_id: organizationId,
    metric: change.metric,
    dim: change.dim,
    span: change.span,
    bucket_start: change.start,
    dim_value: change.dimValue,
    n: agg.n,
    total: agg.total,
    business_total: agg.businessTotal,
    hist: histogramText(agg.hist),
    business_hist: histogramText(agg.businessHist),
  })
  const counted = changes.filter((c) => c.delta.hist.empty && c.delta.businessHist.empty)
  const measured = changes.filter((c) => !c.delta.hist.empty || !c.delta.businessHist.empty)
  await saveTotals(
    tx,
    counted.map((c) => row(c, c.delta)),
    true,
  )
  if (measured.length === 0) return
  const existing = new Map<string, ReportTotalsTable>()
  for (const span of new Set(measured.map((c) => c.span))) {
    const ofSpan = measured.filter((c) => c.span === span)
    const starts = ofSpan.map((c) => c.start)
    const read = await totalsAround(
      tx,
      organizationId,
      span,
      [...new Set(ofSpan.map((c) => c.metric))],
      [...new Set(ofSpan.map((c) => c.dim))],
      Math.min(...starts),
      Math.max(...starts),
    )
    for (const r of read) existing.set(totalKey(r.metric, r.dim, r.dim_value, r.span, Number(r.bucket_start)), r)
  }
  await saveTotals(
    tx,
    measured.map((c) => {
      const stored = existing.get(totalKey(c.metric, c.dim, c.dimValue, c.span, c.start))
      const agg = stored ? aggOfRow(stored) : emptyAgg()
      mergeAgg(agg, c.delta)
      return row(c, agg)
    }),
    false,
  )
}
