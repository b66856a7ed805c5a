// Every report as CSV (`Accept: text/csv` or `format=csv`) with exactly the numbers of its JSON: built
// from the same rows, a duration as its count, mean, p50 and p90 columns. Cells a spreadsheet would run
// as formulas are quoted (csv-stringify, and a leading `'` as the CRM's exports do).
import { stringify } from 'csv-stringify/sync'
import type { MetricValue } from './metric.ts'

type Cell = string | number | null

/** A value as cells: a number (or empty), or a duration's four. */
export function valueCells(value: MetricValue | undefined, duration: boolean): Cell[] {
  if (!duration) return [typeof value === 'number' ? value : null]
  const d = (value ?? { count: 0, mean: null, p50: null, p90: null }) as Exclude<MetricValue, number | null>
  return [d.count, d.mean, d.p50, d.p90]
}

export const valueHeaders = (prefix: string, duration: boolean) =>
  duration ? [`${prefix}count`, `${prefix}mean`, `${prefix}p50`, `${prefix}p90`] : [`${prefix}value`]

function safe(cell: Cell): string {
  if (cell === null) return ''
  const text = String(cell)
  return /^[=@\t\r]/.test(text) || /^[+-](?![\d.]+$)/.test(text) ? `'${text}` : text
}

export function csvText(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return stringify([header, ...rows.map((row) => row.map(safe))])
}

/** Whether the client asked for CSV: `format=csv`, or `Accept: text/csv` without a JSON preference first. */
export function wantsCsv(format: string | undefined, accept: string | null): boolean {
  if (format !== undefined) return format === 'csv'
  return accept !== null && /(^|,)\s*text\/csv/.test(accept) && !/(^|,)\s*application\/json/.test(accept)
}
