// The reports module's public entry: GET /api/v1/reports/{metrics,summary,timeseries,agents,live,records}
// (JSON, or the same numbers as CSV), the report settings (time zone, business hours), the fold's cron
// task and rebuilding an organization's reports. Every figure comes from one metric registry and one
// aggregation, so the summary, the series, the agents' rows, the CSV and the records agree.
export { foldAll, rebuildReports, reportOrganizations } from './fold-task.ts'
export { METRICS } from './registry.ts'
export { reportsTicketReferrer } from './ticket-referrer.ts'

import { Elysia } from 'elysia'
import type { AppContext, Ctx, UserActor } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { isoTime } from '../../lib/clock.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { agentRows } from './agents-report.ts'
import { csvText, valueCells, valueHeaders, wantsCsv } from './csv.ts'
import { reportsFoldTask } from './fold-task.ts'
import type { MetricValue } from './metric.ts'
import { liveReport } from './live.ts'
import { recordsRoute } from './records/routes.ts'
import { metricJson, summaryJson, timeseriesJson } from './render.ts'
import {
  AgentsQuery,
  AgentsResponse,
  LiveResponse,
  MetricList,
  ReportSettingsBody,
  SummaryQuery,
  SummaryResponse,
  TimeseriesQuery,
  TimeseriesResponse,
} from './model.ts'
import { pageOf, queryDigest } from './paging.ts'
import { DEFINITIONS_VERSION, METRICS } from './registry.ts'
import { getReportSettings, updateReportSettings } from './report-settings.ts'
import { badParameter, checkGroupBy, metricNamed, reportWindow } from './request.ts'
import { reportSummary } from './summary.ts'
import { reportTimeseries } from './timeseries.ts'

export function reportsTasks(app: AppContext): TaskDefinition[] {
  return [reportsFoldTask(app, app.config.reportsFoldIntervalMs)]
}

const tags = ['Reports']

/** The body as JSON, or as CSV when asked (same rows, same numbers). */
function answer<T>(c: { query: { format?: string }; request: Request }, json: T, csv: () => string): T {
  if (!wantsCsv(c.query.format, c.request.headers.get('accept'))) return json
  // Elysia sends a Response as it is (the route's JSON schema does not apply to it).
  return new Response(csv(), { headers: { 'content-type': 'text/csv; charset=utf-8' } }) as unknown as T
}

export function reportsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/reports' })
    .use(authMacros(app))
    .get(
      '/metrics',
      ({ ctx }) => ({
        definitions_version: DEFINITIONS_VERSION,
        metrics: METRICS.filter((m) => !m.billing || canSeeBilling(ctx)).map(metricJson),
      }),
      {
        permission: 'report:read',
        response: { 200: MetricList, ...protectedErrors() },
        detail: {
          tags,
          operationId: 'listReportMetrics',
          summary: 'List the metrics',
          description:
            'Every metric with its definition, unit, the records it counts, its dimensions and version. Billing metrics only with billing:read.',
        },
      },
    )
    .get(
      '/summary',
      async (c) => {
        const { ctx, query } = c
        const ids = query.metrics.split(',').map((id) => id.trim())
        if (ids.length > 20) throw badParameter('metrics', 'At most 20 metrics at once')
        const metrics = ids.map((id) => metricNamed(ctx, id, 'metrics'))
        const summary = await reportSummary(ctx, {
          metrics,
          window: await reportWindow(ctx, query),
          compare: query.compare ?? 'previous_period',
        })
        return answer(c, summaryJson(summary), () => {
          const header = [
            'metric',
            'unit',
            'value',
            'count',
            'mean',
            'p50',
            'p90',
            'previous_value',
            'previous_count',
            'previous_mean',
            'previous_p50',
            'previous_p90',
            'change_difference',
            'change_ratio',
          ]
          // A number in `value`, a duration in its four columns: the same cells for the figure and the previous one.
          const cells = (v: MetricValue | undefined, duration: boolean) =>
            duration ? [null, ...valueCells(v, true)] : [...valueCells(v, false), null, null, null, null]
          const rows = summaryJson(summary).metrics.map((row, i) => {
            const duration = summary.rows[i]!.metric.duration === true
            return [
              row.metric,
              row.unit,
              ...cells(row.value, duration),
              ...cells(row.previous, duration),
              row.change?.difference ?? null,
              row.change?.ratio ?? null,
            ]
          })
          return csvText(header, rows)
        })
      },
      {
        permission: 'report:read',
        query: SummaryQuery,
        response: { 200: SummaryResponse, ...protectedErrors('VALIDATION_FAILED', 'RATE_LIMITED') },
        detail: {
          tags,
          operationId: 'reportSummary',
          summary: 'Metrics over a window, with the previous one',
          description: 'Each metric over [from, to) and over the window it is compared with, and the change (on the mean for durations).',
        },
      },
    )
    .get(
      '/timeseries',
      async (c) => {
        const { ctx, query } = c
        const metric = metricNamed(ctx, query.metric, 'metric')
        const groupBy = checkGroupBy(metric, query.group_by)
        const series = await reportTimeseries(ctx, {
          metric,
          window: await reportWindow(ctx, query),
          granularity: query.granularity ?? 'day',
          groupBy,
          top: query.top ?? 10,
        })
        const json = timeseriesJson(series)
        return answer(c, json, () => {
          const duration = metric.duration === true
          const rows = json.series.flatMap((s) => s.points.map((p) => [p.start, p.label, s.group, ...valueCells(p.value, duration)]))
          return csvText(['start', 'label', 'group', ...valueHeaders('', duration)], rows)
        })
      },
      {
        permission: 'report:read',
        query: TimeseriesQuery,
        response: { 200: TimeseriesResponse, ...protectedErrors('VALIDATION_FAILED', 'RATE_LIMITED') },
        detail: {
          tags,
          operationId: 'reportTimeseries',
          summary: 'One metric per local hour, day, week or month',
          description:
            'Buckets are read in `tz` (daylight saving changes included). With group_by, a series per value: the `top` largest, then `other`.',
        },
      },
    )
    .get(
      '/agents',
      async (c) => {
        const { ctx, query } = c
        const window = await reportWindow(ctx, query)
        const page = pageOf(ctx, await agentRows(ctx, window), (row) => [0, row.agent_id], {
          pageSize: query.page_size,
          pageToken: query.page_token,
          digest: queryDigest('agents', query),
        })
        const json = {
          from: isoTime(window.from),
          to: isoTime(window.to),
          tz: window.zone,
          hours: window.params.hours,
          as_of: isoTime(window.now),
          definitions_version: DEFINITIONS_VERSION,
          agents: page.items,
          next_page_token: page.nextPageToken,
        }
        return answer(c, json, () => {
          const statuses = [...new Set(page.items.flatMap((row) => Object.keys(row.status_seconds)))].sort()
          const header = [
            'agent_id',
            'tickets_solved',
            'calls_answered',
            ...valueHeaders('handle_time_', true),
            'sessions_closed',
            'logged_in_seconds',
            'occupancy',
            ...statuses.map((s) => `status_${s}_seconds`),
          ]
          const rows = page.items.map((row) => [
            row.agent_id,
            row.tickets_solved as number,
            row.calls_answered as number,
            ...valueCells(row.handle_time, true),
            row.sessions_closed as number,
            row.logged_in_seconds as number,
            row.occupancy as number | null,
            ...statuses.map((s) => row.status_seconds[s] ?? 0),
          ])
          return csvText(header, rows)
        })
      },
      {
        permission: 'report:read',
        query: AgentsQuery,
        response: { 200: AgentsResponse, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'RATE_LIMITED') },
        detail: {
          tags,
          operationId: 'reportAgents',
          summary: 'One row per agent',
          description:
            'Tickets solved, calls answered and their handle time, sessions closed, logged-in time, time per status and occupancy. An agent gets its own row only.',
        },
      },
    )
    .get('/live', ({ ctx }) => liveReport(ctx), {
      permission: 'report:read',
      response: { 200: LiveResponse, ...protectedErrors('RATE_LIMITED') },
      detail: {
        tags,
        operationId: 'reportLive',
        summary: 'Now: queues, backlog and agents',
        description:
          'Read from the records themselves at the moment of the request: open tickets by status and priority, unassigned ones, calls waiting and the longest wait, sessions queued, agents per status.',
      },
    })
    .use(recordsRoute(app, answer))
    .get('/settings', ({ ctx }) => getReportSettings(ctx), {
      permission: 'report:read',
      response: { 200: ReportSettingsBody, ...protectedErrors() },
      detail: { tags, operationId: 'getReportSettings', summary: "The organization's report time zone and business hours" },
    })
    .put('/settings', ({ ctx, body }) => updateReportSettings(ctx, body), {
      permission: 'organization:update',
      body: ReportSettingsBody,
      response: { 200: ReportSettingsBody, ...protectedErrors('VALIDATION_FAILED') },
      detail: {
        tags,
        operationId: 'updateReportSettings',
        summary: 'Set the report time zone and business hours',
        description: 'A changed schedule counts from the next events on; `switchboard reports rebuild` recomputes the past with it.',
      },
    })
}

export function canSeeBilling(ctx: Ctx<UserActor>): boolean {
  try {
    ctx.guards.requirePermission(ctx.actor, 'billing:read')
    return true
  } catch {
    return false
  }
}
