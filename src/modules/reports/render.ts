// The reports' JSON: one rendering, for the JSON answer and for the CSV built from it.
import { isoTime } from '../../lib/clock.ts'
import type { MetricDef } from './metric.ts'
import { changeOf, type reportSummary } from './summary.ts'
import type { reportTimeseries } from './timeseries.ts'

export function metricJson(metric: MetricDef) {
  const { id, family, name, unit, definition, records, dimensions, version } = metric
  return {
    id,
    family,
    name,
    unit,
    definition,
    records,
    dimensions: [...dimensions],
    version,
    requires: metric.billing ? ['billing:read'] : [],
  }
}

export function summaryJson(summary: Awaited<ReturnType<typeof reportSummary>>) {
  const { rows, ...rest } = summary
  return {
    ...rest,
    metrics: rows.map((row) => ({
      metric: row.metric.id,
      name: row.metric.name,
      unit: row.metric.unit,
      value: row.value,
      ...(row.previous === undefined ? {} : { previous: row.previous }),
      change: row.previous === undefined ? null : changeOf(row.value, row.previous),
    })),
  }
}

export function timeseriesJson(report: Awaited<ReturnType<typeof reportTimeseries>>) {
  const { metric, series, ...rest } = report
  return {
    ...rest,
    metric: metric.id,
    unit: metric.unit,
    series: series.map((s) => ({
      group: s.group,
      total: s.total,
      points: s.points.map((p) => ({ start: isoTime(p.start), label: p.label, value: p.value })),
    })),
  }
}
