// GET /api/v1/reports/records: the records behind a figure, as JSON or CSV, a page at a time.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { isoTime } from '../../../lib/clock.ts'
import { csvText } from '../csv.ts'
import { RecordsQuery, RecordsResponse } from '../model.ts'
import { pageOf, queryDigest } from '../paging.ts'
import { recordJson, recordsOf } from '../records.ts'
import { DEFINITIONS_VERSION } from '../registry.ts'
import { badParameter, checkGroupBy, metricNamed, reportWindow } from '../request.ts'

type Answer = <T>(c: { query: { format?: string }; request: Request }, json: T, csv: () => string) => T

export function recordsRoute(app: AppContext, answer: Answer) {
  return new Elysia().use(authMacros(app)).get(
    '/records',
    async (c) => {
      const { ctx, query } = c
      const metric = metricNamed(ctx, query.metric, 'metric')
      const window = await reportWindow(ctx, query)
      let bucket: { start: number; granularity: 'hour' | 'day' | 'week' | 'month' } | undefined
      if (query.bucket !== undefined) {
        const start = Date.parse(query.bucket)
        if (!Number.isFinite(start) || !/^\d{4}-\d{2}-\d{2}T/.test(query.bucket))
          throw badParameter('bucket', 'bucket is the `start` of a time-series bucket (RFC 3339)')
        bucket = { start, granularity: query.granularity ?? 'day' }
      }
      if ((query.group === undefined) !== (query.group_by === undefined)) throw badParameter('group', 'group and group_by go together')
      const group = query.group_by === undefined ? undefined : { dim: checkGroupBy(metric, query.group_by), value: query.group! }
      const facts = await recordsOf(ctx, { metric, window, bucket, group })
      const page = pageOf(ctx, facts, (f) => [f.at, `${f.recordId}\u0000${String(f.seq).padStart(16, '0')}`], {
        pageSize: query.page_size,
        pageToken: query.page_token,
        digest: queryDigest('records', query),
      })
      const records = page.items.map(recordJson)
      const json = {
        from: isoTime(window.from),
        to: isoTime(window.to),
        tz: window.zone,
        hours: window.params.hours,
        as_of: isoTime(window.now),
        definitions_version: DEFINITIONS_VERSION,
        metric: metric.id,
        total_count: facts.length,
        records,
        next_page_token: page.nextPageToken,
      }
      return answer(c, json, () =>
        csvText(
          ['record_type', 'record_id', 'at', 'started_at', 'value', 'business_value', 'dimensions'],
          records.map((r) => [r.record_type, r.record_id, r.at, r.started_at, r.value, r.business_value, JSON.stringify(r.dimensions)]),
        ),
      )
    },
    {
      permission: 'report:read',
      query: RecordsQuery,
      response: { 200: RecordsResponse, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'RATE_LIMITED') },
      detail: {
        tags: ['Reports'],
        operationId: 'reportRecords',
        summary: 'The records behind a figure',
        description:
          'One row per record the figure counts (for a ratio, the records of its first stream: the abandoned calls of the abandonment rate), oldest first; `total_count` equals the figure for counts. An agent sees only its own.',
      },
    },
  )
}
