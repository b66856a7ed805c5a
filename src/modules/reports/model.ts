// Request and response schemas of the reports, with examples (OpenAPI).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { oneOf } from '../../http/schema.ts'

const WINDOW = {
  from: t.Optional(
    t.String({
      maxLength: 40,
      description: 'RFC 3339 time, or a date `YYYY-MM-DD` in `tz` (its start); default 7 days before `to`',
      examples: ['2026-03-01'],
    }),
  ),
  to: t.Optional(
    t.String({
      maxLength: 40,
      description: 'End of the window, exclusive; RFC 3339 or a date in `tz`; default now',
      examples: ['2026-03-08T00:00:00Z'],
    }),
  ),
  tz: t.Optional(
    t.String({
      maxLength: 64,
      description: "IANA time zone the dates and buckets are read in; default the organization's (PUT /reports/settings), else UTC",
      examples: ['America/New_York'],
    }),
  ),
  hours: t.Optional(
    oneOf(['calendar', 'business'] as const, {
      description: 'Durations in calendar time (default) or counted only inside the business hours',
    }),
  ),
  threshold: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 3600,
      'x-field': 'threshold',
      description: 'Service level: answered within this many seconds (default 20)',
    }),
  ),
  format: t.Optional(oneOf(['json', 'csv'] as const, { description: 'csv: the same numbers as CSV (or send Accept: text/csv)' })),
}

export const SummaryQuery = t.Object({
  ...WINDOW,
  metrics: t.String({
    minLength: 1,
    maxLength: 1000,
    description: 'Comma-separated metric ids (GET /reports/metrics), at most 20',
    examples: ['tickets.created,tickets.first_response_time'],
  }),
  compare: t.Optional(
    oneOf(['none', 'previous_period', 'previous_year'] as const, {
      description:
        'What each figure is compared with: the window of as many hours just before (default; a 23-hour DST day is compared with the 23 hours before it), 52 weeks before, or nothing',
    }),
  ),
})

export const GRANULARITY = oneOf(['hour', 'day', 'week', 'month'] as const, {
  description: 'Local hours, days, ISO weeks (from Monday) or months of `tz` (default day)',
})

export const TimeseriesQuery = t.Object({
  ...WINDOW,
  metric: t.String({ minLength: 1, maxLength: 100, examples: ['tickets.created'] }),
  granularity: t.Optional(GRANULARITY),
  group_by: t.Optional(
    t.String({ maxLength: 50, description: "One of the metric's dimensions: a series per value", examples: ['channel'] }),
  ),
  top: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 50,
      'x-field': 'top',
      description: 'Series kept with group_by (the largest; the rest is `other`), default 10',
    }),
  ),
})

const PAGING = {
  page_size: t.Optional(
    t.Integer({ minimum: 1, maximum: 1000, 'x-field': 'page_size', description: 'Rows per page, 1-1000 (default 100)' }),
  ),
  page_token: t.Optional(
    t.String({ minLength: 1, maxLength: 2048, description: 'next_page_token of the previous page; keep the other parameters unchanged' }),
  ),
}

export const AgentsQuery = t.Object({ ...WINDOW, ...PAGING })

export const RecordsQuery = t.Object({
  ...WINDOW,
  ...PAGING,
  metric: t.String({ minLength: 1, maxLength: 100, examples: ['tickets.first_response_time'] }),
  bucket: t.Optional(
    t.String({
      maxLength: 40,
      description: 'A time-series bucket: its `start`; with `granularity`',
      examples: ['2026-03-08T05:00:00.000Z'],
    }),
  ),
  granularity: t.Optional(GRANULARITY),
  group_by: t.Optional(
    t.String({ maxLength: 50, description: 'With `group`: only the records counted under that value of this dimension' }),
  ),
  group: t.Optional(t.String({ maxLength: 200 })),
})

const Duration = t.Object(
  { count: Type.Integer(), mean: t.Nullable(t.Number()), p50: t.Nullable(t.Number()), p90: t.Nullable(t.Number()) },
  {
    description:
      'Seconds: how many, the mean, and the 50th and 90th percentiles (of values kept whole up to 9,999 s, then at 4 significant figures)',
  },
)
const Value = t.Union([t.Number(), t.Null(), Duration])

const Metric = t.Object({
  id: t.String(),
  family: t.String(),
  name: t.String(),
  unit: t.String(),
  definition: t.String(),
  records: t.String(),
  dimensions: t.Array(t.String()),
  version: Type.Integer(),
  requires: t.Array(t.String(), { description: 'Permissions besides report:read' }),
})

export const MetricList = t.Object(
  { definitions_version: t.String(), metrics: t.Array(Metric) },
  {
    examples: [
      {
        definitions_version: '37.37',
        metrics: [
          {
            id: 'tickets.created',
            family: 'tickets',
            name: 'Tickets created',
            unit: 'count',
            definition: 'Tickets created in the window, by their creation time.',
            records: 'tickets',
            dimensions: ['priority', 'channel', 'assignee', 'tag'],
            version: 1,
            requires: [],
          },
        ],
      },
    ],
  },
)

const Stamp = {
  as_of: t.String({ format: 'date-time', description: 'Every change committed before this is counted' }),
  definitions_version: t.String(),
}
const Span = { from: t.String({ format: 'date-time' }), to: t.String({ format: 'date-time' }), tz: t.String(), hours: t.String() }

export const SummaryResponse = t.Object(
  {
    ...Span,
    ...Stamp,
    compare: t.String(),
    previous_from: t.Nullable(t.String({ format: 'date-time' })),
    previous_to: t.Nullable(t.String({ format: 'date-time' })),
    metrics: t.Array(
      t.Object({
        metric: t.String(),
        name: t.String(),
        unit: t.String(),
        value: Value,
        previous: t.Optional(Value),
        change: t.Nullable(t.Object({ difference: t.Number(), ratio: t.Nullable(t.Number()) })),
      }),
    ),
  },
  {
    examples: [
      {
        from: '2026-03-01T05:00:00.000Z',
        to: '2026-03-08T05:00:00.000Z',
        tz: 'America/New_York',
        hours: 'calendar',
        as_of: '2026-03-08T05:00:00.000Z',
        definitions_version: '37.37',
        compare: 'previous_period',
        previous_from: '2026-02-22T05:00:00.000Z',
        previous_to: '2026-03-01T05:00:00.000Z',
        metrics: [
          {
            metric: 'tickets.created',
            name: 'Tickets created',
            unit: 'count',
            value: 42,
            previous: 35,
            change: { difference: 7, ratio: 0.2 },
          },
        ],
      },
    ],
  },
)

export const TimeseriesResponse = t.Object(
  {
    ...Span,
    ...Stamp,
    metric: t.String(),
    unit: t.String(),
    granularity: t.String(),
    group_by: t.Nullable(t.String()),
    series: t.Array(
      t.Object({
        group: t.Nullable(t.String({ description: "The dimension's value; `other` for the rest, `none` for records without one" })),
        total: Value,
        points: t.Array(
          t.Object({
            start: t.String({ format: 'date-time' }),
            label: t.String({ description: 'The local bucket: 2026-03-08T03:00-04:00, 2026-03-08, 2026-W10, 2026-03' }),
            value: Value,
          }),
        ),
      }),
    ),
  },
  {
    examples: [
      {
        from: '2026-03-01T05:00:00.000Z',
        to: '2026-03-08T05:00:00.000Z',
        tz: 'America/New_York',
        hours: 'calendar',
        as_of: '2026-03-08T05:00:00.000Z',
        definitions_version: '37.37',
        metric: 'tickets.created',
        unit: 'count',
        granularity: 'day',
        group_by: 'channel',
        series: [
          {
            group: 'email',
            total: 5,
            points: [
              { start: '2026-03-07T05:00:00.000Z', label: '2026-03-07', value: 2 },
              { start: '2026-03-08T05:00:00.000Z', label: '2026-03-08', value: 3 },
            ],
          },
        ],
      },
    ],
  },
)

export const AgentsResponse = t.Object(
  {
    ...Span,
    ...Stamp,
    agents: t.Array(t.Record(t.String(), t.Unknown())),
    next_page_token: t.Nullable(t.String()),
  },
  {
    examples: [
      {
        from: '2026-03-01T05:00:00.000Z',
        to: '2026-03-08T05:00:00.000Z',
        tz: 'America/New_York',
        hours: 'calendar',
        as_of: '2026-03-08T05:00:00.000Z',
        definitions_version: '37.37',
        agents: [
          {
            agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
            tickets_solved: 12,
            calls_answered: 30,
            handle_time: { count: 30, mean: 241.5, p50: 220, p90: 410 },
            sessions_closed: 8,
            logged_in_seconds: 28800,
            occupancy: 0.62,
            status_seconds: { available: 9000, busy: 14700, break: 1800 },
          },
        ],
        next_page_token: null,
      },
    ],
  },
)

export const RecordsResponse = t.Object(
  {
    ...Span,
    ...Stamp,
    metric: t.String(),
    total_count: Type.Integer({ description: 'How many records the figure counts' }),
    records: t.Array(
      t.Object({
        record_type: t.String(),
        record_id: t.String(),
        at: t.String({ format: 'date-time' }),
        started_at: t.Nullable(t.String({ format: 'date-time' })),
        value: t.Nullable(t.Number()),
        business_value: t.Nullable(t.Number()),
        dimensions: t.Record(t.String(), t.Unknown()),
      }),
    ),
    next_page_token: t.Nullable(t.String()),
  },
  {
    examples: [
      {
        from: '2026-03-01T05:00:00.000Z',
        to: '2026-03-08T05:00:00.000Z',
        tz: 'America/New_York',
        hours: 'calendar',
        as_of: '2026-03-08T05:00:00.000Z',
        definitions_version: '37.37',
        metric: 'tickets.first_response_time',
        total_count: 1,
        records: [
          {
            record_type: 'ticket',
            record_id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
            at: '2026-03-07T14:10:00.000Z',
            started_at: '2026-03-07T14:00:00.000Z',
            value: 600,
            business_value: 600,
            dimensions: { priority: 'high', channel: 'email', assignee: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ', tag: ['printers'] },
          },
        ],
        next_page_token: null,
      },
    ],
  },
)

export const LiveResponse = t.Object(
  {
    as_of: t.String({ format: 'date-time' }),
    tickets: t.Object({
      backlog: Type.Integer(),
      by_status: t.Record(t.String(), Type.Integer()),
      by_priority: t.Record(t.String(), Type.Integer()),
      unassigned: Type.Integer(),
    }),
    calls: t.Object({ waiting: Type.Integer(), longest_wait_seconds: t.Nullable(Type.Integer()) }),
    sessions: t.Object({ queued: Type.Integer(), longest_wait_seconds: t.Nullable(Type.Integer()) }),
    agents: t.Object({ by_status: t.Record(t.String(), Type.Integer()) }),
  },
  {
    examples: [
      {
        as_of: '2026-03-08T15:00:00.000Z',
        tickets: {
          backlog: 14,
          by_status: { new: 3, open: 8, pending: 2, on_hold: 1 },
          by_priority: { low: 2, normal: 9, high: 2, urgent: 1 },
          unassigned: 4,
        },
        calls: { waiting: 2, longest_wait_seconds: 45 },
        sessions: { queued: 1, longest_wait_seconds: 30 },
        agents: { by_status: { available: 5, busy: 3, offline: 12 } },
      },
    ],
  },
)

export const ReportSettingsBody = t.Object(
  {
    time_zone: t.String({ minLength: 1, maxLength: 64, description: 'The default zone of reports' }),
    business_hours: t.Nullable(
      t.Object({
        zone: t.Optional(t.String({ maxLength: 64, description: 'Default: time_zone' })),
        weekly: t.Record(t.String(), t.Array(t.Object({ start: t.String(), end: t.String() }))),
        holidays: t.Array(t.String()),
      }),
    ),
  },
  {
    examples: [
      {
        time_zone: 'Europe/Berlin',
        business_hours: {
          weekly: {
            mon: [{ start: '09:00', end: '17:00' }],
            tue: [{ start: '09:00', end: '17:00' }],
            wed: [{ start: '09:00', end: '17:00' }],
            thu: [{ start: '09:00', end: '17:00' }],
            fri: [{ start: '09:00', end: '15:00' }],
            sat: [],
            sun: [],
          },
          holidays: ['2026-12-25', '2026-12-26'],
        },
      },
    ],
  },
)
