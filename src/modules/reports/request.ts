// A report's parameters, checked once for every endpoint: the window (`from`, `to`: RFC 3339, or dates
// in `tz`), the zone (any IANA zone; default the organization's), calendar or business hours, the service
// level threshold. Every refusal is 400 naming the parameter.
import type { Ctx, UserActor } from '../../context.ts'
import { validationError } from '../../errors.ts'

/** 400 naming one parameter. */
export const badParameter = (field: string, message: string) => validationError([{ field, message }], message)
import type { Schedule } from '../../lib/business-hours.ts'
import { type Granularity, isTimeZone, parseInstantOrDate } from '../../lib/zoned-time.ts'
import { scheduleOf } from './fold-task.ts'
import type { MetricDef, MetricParams } from './metric.ts'
import { findMetric } from './registry.ts'
import { findReportSettings } from './store.ts'

export const DAY_MS = 86_400_000
/** The longest window a report covers (two years and a day, for year-over-year comparisons). */
export const MAX_WINDOW_MS = 732 * DAY_MS

export interface ReportQuery {
  from?: string
  to?: string
  tz?: string
  hours?: 'calendar' | 'business'
  threshold?: number
}

export interface ReportWindow {
  readonly from: number
  readonly to: number
  readonly zone: string
  readonly params: MetricParams
  readonly schedule: Schedule | undefined
  readonly now: number
}

export async function reportWindow(ctx: Ctx<UserActor>, query: ReportQuery, defaultDays = 7): Promise<ReportWindow> {
  const settings = await findReportSettings(ctx.db, ctx.actor.organizationId)
  const zone = query.tz ?? settings?.time_zone ?? 'UTC'
  if (!isTimeZone(zone))
    throw badParameter('tz', `${JSON.stringify(zone)} is not an IANA time zone (such as Europe/Berlin or Asia/Kolkata)`)
  const now = ctx.clock.now()
  const instant = (name: 'from' | 'to', text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback
    const parsed = parseInstantOrDate(zone, text)
    if (parsed === undefined)
      throw badParameter(name, `${name} must be an RFC 3339 time (2026-03-08T10:00:00Z) or a date in tz (2026-03-08)`)
    return parsed
  }
  const to = instant('to', query.to, now)
  const from = instant('from', query.from, to - defaultDays * DAY_MS)
  if (from >= to) throw badParameter('from', 'from must be before to')
  if (to - from > MAX_WINDOW_MS) throw badParameter('from', 'A report covers at most 732 days')
  const schedule = scheduleOf(settings?.business_hours)
  const hours = query.hours ?? 'calendar'
  if (hours === 'business' && !schedule)
    throw badParameter('hours', 'This organization has no business hours: set them with PUT /api/v1/reports/settings first')
  return { from, to, zone, now, schedule, params: { hours, threshold: query.threshold ?? 20 } }
}

/** The metric named `id`, or 400; billing metrics need `billing:read` as well (403). */
export function metricNamed(ctx: Ctx<UserActor>, id: string, field: string): MetricDef {
  const metric = findMetric(id)
  if (!metric) throw badParameter(field, `Unknown metric ${JSON.stringify(id)}: GET /api/v1/reports/metrics lists them`)
  if (metric.billing) ctx.guards.requirePermission(ctx.actor, 'billing:read')
  return metric
}

export function checkGroupBy(metric: MetricDef, groupBy: string | undefined): string {
  if (groupBy === undefined) return ''
  if (!metric.dimensions.includes(groupBy))
    throw badParameter('group_by', `${metric.id} is grouped by ${metric.dimensions.join(', ')}; not by ${JSON.stringify(groupBy)}`)
  return groupBy
}

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week', 'month']
