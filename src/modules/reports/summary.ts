// GET /api/v1/reports/summary: chosen metrics over the window, beside the same metrics over the window
// before it (`previous_period`, the default) or 52 weeks before (`previous_year`: the same weekdays), and
// the change of each.
import type { Ctx, UserActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { isoTime } from '../../lib/clock.ts'
import { aggregate, groupKey } from './aggregate.ts'
import type { MetricDef, MetricValue } from './metric.ts'
import { DEFINITIONS_VERSION } from './registry.ts'
import { DAY_MS, type ReportWindow } from './request.ts'

export type Compare = 'none' | 'previous_period' | 'previous_year'

export interface SummaryRow {
  readonly metric: MetricDef
  readonly value: MetricValue
  readonly previous: MetricValue | undefined
}

/** The number a change is measured on: the value, or a duration's mean. */
export function headline(value: MetricValue | undefined): number | null {
  if (value === undefined || value === null) return null
  return typeof value === 'number' ? value : value.mean
}

export function changeOf(value: MetricValue, previous: MetricValue | undefined) {
  const now = headline(value)
  const before = headline(previous)
  if (now === null || before === null) return null
  const difference = Math.round((now - before) * 10_000) / 10_000
  return { difference, ratio: before === 0 ? null : Math.round(((now - before) / before) * 10_000) / 10_000 }
}

export async function valuesOver(
  view: Queries,
  organizationId: string,
  metrics: readonly MetricDef[],
  window: Pick<ReportWindow, 'from' | 'to' | 'schedule' | 'now' | 'params'>,
) {
  const streams = [...new Set(metrics.flatMap((m) => m.streams))]
  const grouped = await aggregate(view, {
    organizationId,
    streams,
    from: window.from,
    to: window.to,
    dim: '',
    schedule: window.schedule,
    now: window.now,
  })
  const aggs = grouped.get(groupKey(0, '')) ?? new Map()
  return metrics.map((metric) => metric.value(aggs, window.params))
}

export async function reportSummary(ctx: Ctx<UserActor>, input: { metrics: readonly MetricDef[]; window: ReportWindow; compare: Compare }) {
  const { window, metrics, compare } = input
  const shift = compare === 'previous_year' ? 364 * DAY_MS : window.to - window.from
  const previousWindow = { ...window, from: window.from - shift, to: window.to - shift }
  const organizationId = ctx.actor.organizationId
  // Both windows from one snapshot: a fold committing meanwhile moves no fact from one read to another.
  const [values, previous] = await ctx.db.admin.snapshot(async (view) => [
    await valuesOver(view, organizationId, metrics, window),
    compare === 'none' ? undefined : await valuesOver(view, organizationId, metrics, previousWindow),
  ])
  return {
    from: isoTime(window.from),
    to: isoTime(window.to),
    tz: window.zone,
    hours: window.params.hours,
    compare,
    previous_from: compare === 'none' ? null : isoTime(previousWindow.from),
    previous_to: compare === 'none' ? null : isoTime(previousWindow.to),
    as_of: isoTime(window.now),
    definitions_version: DEFINITIONS_VERSION,
    rows: metrics.map((metric, i): SummaryRow => ({ metric, value: values[i]!, previous: previous?.[i] })),
  }
}
