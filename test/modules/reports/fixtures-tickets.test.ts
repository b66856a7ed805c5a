// Ticket metrics on a hand-made day (2026-01-05, UTC), every figure computed by hand: tickets created,
// solved (twice for a ticket solved, reopened and solved again), reopened, the first response (the first
// public comment by a signed-in person: not a private one, not one made with a personal access token) and
// the resolution time; the day before holds a ticket answered and solved after midnight (counted when
// answered and solved), the day after a first response of a ticket of the day (not counted). Two
// organizations go through it; the second is folded part way.
import { expect } from 'bun:test'
import {
  type AgentsReport,
  agentsCsvObjects,
  allRecords,
  csvObjects,
  beforeAndAfterFold,
  change,
  duration,
  NO_DURATION,
  type Org,
  pagedRecords,
  play,
  pointsOf,
  reportsApp,
  type Summary,
  summaryCsvObjects,
  summaryFigures,
  type Timeseries,
  timeseriesCsvRows,
  utcHourLabels,
} from './helpers.ts'

const { app, orgs } = await reportsApp({
  start: '2026-01-04T23:00:00Z',
  orgs: [{ name: 'acme' }, { name: 'globex', foldsMidway: true }],
})

const ticket = async (org: Org, name: string, role: 'admin' | 'agent', body: Record<string, unknown>) => {
  const made = await org.ok<{ id: string }>(role, 'POST', '/api/v1/tickets', { subject: name, ...body }, 201)
  org.ids[name] = made.id
}
const comment = (org: Org, name: string, role: 'admin' | 'agent' | 'supervisor', isPublic: boolean) =>
  org.ok(role, 'POST', `/api/v1/tickets/${org.ref(name)}/comments`, { body: 'Looking into it', public: isPublic }, 201)
/** A public comment made with the admin's personal access token: an automation. */
const commentWithToken = async (org: Org, name: string) => {
  const response = await org.send(
    'admin',
    'POST',
    `/api/v1/tickets/${org.ref(name)}/comments`,
    { body: 'Auto-reply', public: true },
    {
      'x-api-key': org.ref('pat'),
    },
  )
  expect(response.status).toBe(201)
}
const status = (org: Org, name: string, role: 'agent' | 'supervisor', to: string) =>
  org.ok(role, 'PATCH', `/api/v1/tickets/${org.ref(name)}`, { status: to })

await play(app, orgs, [
  {
    at: '2026-01-04T23:00:00Z',
    run: async (org) => {
      const pat = await org.ok<{ token: string }>(
        'admin',
        'POST',
        '/api/v1/api-keys',
        { name: 'Bot', expires_at: '2026-06-01T00:00:00Z' },
        201,
      )
      org.ids.pat = pat.token
    },
  },
  // The day before: T5, answered and solved after midnight.
  { at: '2026-01-04T23:50:00Z', run: (org) => ticket(org, 'T5', 'admin', { channel: 'chat', assignee_id: org.userId('agent') }) },
  { at: '2026-01-05T00:10:00Z', run: (org) => comment(org, 'T5', 'agent', true) },
  { at: '2026-01-05T00:20:00Z', run: (org) => status(org, 'T5', 'agent', 'solved'), fold: true },
  {
    at: '2026-01-05T09:00:00Z',
    run: (org) =>
      ticket(org, 'T1', 'admin', { priority: 'high', channel: 'email', tags: ['billing', 'vip'], assignee_id: org.userId('agent') }),
  },
  { at: '2026-01-05T09:05:00Z', run: (org) => comment(org, 'T1', 'admin', false) },
  { at: '2026-01-05T09:10:00Z', run: (org) => commentWithToken(org, 'T1') },
  // The first response of T1: 20 minutes.
  { at: '2026-01-05T09:20:00Z', run: (org) => comment(org, 'T1', 'agent', true) },
  {
    at: '2026-01-05T09:30:00Z',
    run: async (org) => {
      await comment(org, 'T1', 'supervisor', true)
      await ticket(org, 'T2', 'agent', { channel: 'web' })
    },
  },
  { at: '2026-01-05T09:31:00Z', run: (org) => comment(org, 'T2', 'supervisor', true) },
  {
    at: '2026-01-05T10:00:00Z',
    run: async (org) => {
      await status(org, 'T1', 'agent', 'solved')
      await ticket(org, 'T3', 'admin', { priority: 'low', channel: 'phone', tags: ['billing'] })
    },
    fold: true,
  },
  { at: '2026-01-05T10:05:00Z', run: (org) => commentWithToken(org, 'T3') },
  { at: '2026-01-05T10:10:00Z', run: (org) => comment(org, 'T3', 'agent', false) },
  { at: '2026-01-05T10:30:00Z', run: (org) => status(org, 'T1', 'agent', 'open') },
  { at: '2026-01-05T11:00:00Z', run: (org) => status(org, 'T1', 'agent', 'solved') },
  { at: '2026-01-05T12:00:00Z', run: (org) => status(org, 'T2', 'supervisor', 'solved') },
  {
    at: '2026-01-05T13:00:00Z',
    run: (org) =>
      ticket(org, 'T4', 'admin', { priority: 'urgent', channel: 'email', tags: ['vip'], assignee_id: org.userId('supervisor') }),
  },
  { at: '2026-01-05T13:45:30Z', run: (org) => comment(org, 'T4', 'admin', true), fold: true },
  { at: '2026-01-05T23:00:00Z', run: (org) => ticket(org, 'T6', 'admin', { channel: 'chat', tags: ['billing'] }) },
  // The day after: T6's first response.
  { at: '2026-01-06T00:30:00Z', run: (org) => comment(org, 'T6', 'admin', true) },
  { at: '2026-01-06T01:00:00Z', run: async () => {} },
])

const DAY_WINDOW = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z', tz: 'UTC' }
const TWO_DAYS = { from: '2026-01-04', to: '2026-01-06', tz: 'UTC' }
const METRICS = ['tickets.created', 'tickets.solved', 'tickets.reopened', 'tickets.first_response_time', 'tickets.resolution_time']

/** The figures of the day and of the day before, by hand. */
const FIGURES = [
  { metric: 'tickets.created', unit: 'count', duration: false, value: 5, previous: 1 },
  { metric: 'tickets.solved', unit: 'count', duration: false, value: 4, previous: 0 },
  { metric: 'tickets.reopened', unit: 'count', duration: false, value: 1, previous: 0 },
  // T5 1200 s (answered after midnight), T1 1200 s, T2 60 s, T4 2730 s; T3 has none (a token's and a private comment), T6's is the day after.
  {
    metric: 'tickets.first_response_time',
    unit: 'seconds',
    duration: true,
    value: duration(4, 1297.5, 1200, 2730),
    previous: NO_DURATION,
  },
  // T5 1800 s, T1 3600 s and 7200 s (solved twice), T2 9000 s.
  { metric: 'tickets.resolution_time', unit: 'seconds', duration: true, value: duration(4, 5400, 3600, 9000), previous: NO_DURATION },
] as const

beforeAndAfterFold(app, () => orgs, {
  'the summary of the day, beside the day before': async (org) => {
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: METRICS.join(',') })
    expect(summary).toMatchObject({
      from: '2026-01-05T00:00:00.000Z',
      to: '2026-01-06T00:00:00.000Z',
      tz: 'UTC',
      hours: 'calendar',
      compare: 'previous_period',
      previous_from: '2026-01-04T00:00:00.000Z',
      previous_to: '2026-01-05T00:00:00.000Z',
      as_of: '2026-01-06T01:00:00.000Z',
    })
    expect(summaryFigures(summary)).toEqual(
      Object.fromEntries(FIGURES.map((f) => [f.metric, { value: f.value, previous: f.previous, change: change(f.value, f.previous) }])),
    )
    expect(summary.metrics.map((m) => [m.metric, m.unit])).toEqual(FIGURES.map((f) => [f.metric, f.unit]))
  },

  'the summary as CSV has the same numbers': async (org) => {
    expect(csvObjects(await org.csv('summary', { ...DAY_WINDOW, metrics: METRICS.join(',') }))).toEqual(summaryCsvObjects(FIGURES))
  },

  'compare=none and compare=previous_year': async (org) => {
    const none = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: 'tickets.created', compare: 'none' })
    expect(none).toMatchObject({ compare: 'none', previous_from: null, previous_to: null })
    expect(none.metrics).toEqual([{ metric: 'tickets.created', name: 'Tickets created', unit: 'count', value: 5, change: null }])
    const year = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: 'tickets.created', compare: 'previous_year' })
    expect(year).toMatchObject({ previous_from: '2025-01-06T00:00:00.000Z', previous_to: '2025-01-07T00:00:00.000Z' })
    expect(summaryFigures(year)['tickets.created']).toEqual({ value: 5, previous: 0, change: { difference: 5, ratio: null } })
  },

  'tickets created per hour of the day': async (org) => {
    const series = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'tickets.created', granularity: 'hour' })
    expect(series).toMatchObject({ metric: 'tickets.created', unit: 'count', granularity: 'hour', group_by: null })
    const counts: Record<number, number> = { 9: 2, 10: 1, 13: 1, 23: 1 }
    expect(series.series.length).toBe(1)
    expect(series.series[0]!.group).toBeNull()
    expect(series.series[0]!.total).toBe(5)
    expect(pointsOf(series.series[0]!)).toEqual(utcHourLabels('2026-01-05').map((label, h) => [label, counts[h] ?? 0]))
    expect(series.series[0]!.points[9]!.start).toBe('2026-01-05T09:00:00.000Z')
    expect(await org.csv('timeseries', { ...DAY_WINDOW, metric: 'tickets.created', granularity: 'hour' })).toEqual(
      timeseriesCsvRows(series, false),
    )
  },

  'tickets created per day by tag': async (org) => {
    const query = { ...TWO_DAYS, metric: 'tickets.created', group_by: 'tag' }
    const series = await org.report<Timeseries>('timeseries', query)
    // billing: T1, T3, T6; none: T5 (the day before), T2; vip: T1, T4 (ties by name: none before vip).
    expect(series.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      [
        'billing',
        3,
        [
          ['2026-01-04', 0],
          ['2026-01-05', 3],
        ],
      ],
      [
        'none',
        2,
        [
          ['2026-01-04', 1],
          ['2026-01-05', 1],
        ],
      ],
      [
        'vip',
        2,
        [
          ['2026-01-04', 0],
          ['2026-01-05', 2],
        ],
      ],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(series, false))
  },

  'top=2: the two largest tags, then other': async (org) => {
    const query = { ...TWO_DAYS, metric: 'tickets.created', group_by: 'tag', top: 2 }
    const series = await org.report<Timeseries>('timeseries', query)
    expect(series.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      [
        'billing',
        3,
        [
          ['2026-01-04', 0],
          ['2026-01-05', 3],
        ],
      ],
      [
        'none',
        2,
        [
          ['2026-01-04', 1],
          ['2026-01-05', 1],
        ],
      ],
      [
        'other',
        2,
        [
          ['2026-01-04', 0],
          ['2026-01-05', 2],
        ],
      ],
    ])
  },

  'first response time per day by assignee; resolution time by priority': async (org) => {
    const frt = await org.report<Timeseries>('timeseries', { ...TWO_DAYS, metric: 'tickets.first_response_time', group_by: 'assignee' })
    const agent = org.userId('agent')
    const supervisor = org.userId('supervisor')
    // Ranked by the mean: T4 (supervisor) 2730; T5, T1 (agent) 1200 each; T2 (nobody) 60.
    expect(frt.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      [
        supervisor,
        duration(1, 2730, 2730, 2730),
        [
          ['2026-01-04', NO_DURATION],
          ['2026-01-05', duration(1, 2730, 2730, 2730)],
        ],
      ],
      [
        agent,
        duration(2, 1200, 1200, 1200),
        [
          ['2026-01-04', NO_DURATION],
          ['2026-01-05', duration(2, 1200, 1200, 1200)],
        ],
      ],
      [
        'none',
        duration(1, 60, 60, 60),
        [
          ['2026-01-04', NO_DURATION],
          ['2026-01-05', duration(1, 60, 60, 60)],
        ],
      ],
    ])
    const query = { ...DAY_WINDOW, metric: 'tickets.resolution_time', group_by: 'priority' }
    const resolution = await org.report<Timeseries>('timeseries', query)
    expect(resolution.series.map((s) => [s.group, s.total])).toEqual([
      ['high', duration(2, 5400, 3600, 7200)],
      ['normal', duration(2, 5400, 1800, 9000)],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(resolution, true))
  },

  'the records behind each count are as many as the count': async (org) => {
    const ids = (r: { records: { record_id: string }[] }) => r.records.map((x) => x.record_id)
    const created = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.created' })
    expect(created.total_count).toBe(5)
    expect(ids(created)).toEqual(['T1', 'T2', 'T3', 'T4', 'T6'].map((n) => org.ref(n)))
    expect(created.records[0]).toEqual({
      record_type: 'ticket',
      record_id: org.ref('T1'),
      at: '2026-01-05T09:00:00.000Z',
      started_at: null,
      value: null,
      business_value: null,
      dimensions: { priority: 'high', channel: 'email', assignee: org.userId('agent'), tag: ['billing', 'vip'] },
    })
    const solved = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.solved' })
    expect(solved.records.map((r) => [r.record_id, r.at, r.value])).toEqual([
      [org.ref('T5'), '2026-01-05T00:20:00.000Z', 1800],
      [org.ref('T1'), '2026-01-05T10:00:00.000Z', 3600],
      [org.ref('T1'), '2026-01-05T11:00:00.000Z', 7200],
      [org.ref('T2'), '2026-01-05T12:00:00.000Z', 9000],
    ])
    const reopened = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.reopened' })
    expect(reopened.records.map((r) => [r.record_id, r.at])).toEqual([[org.ref('T1'), '2026-01-05T10:30:00.000Z']])
    const frt = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.first_response_time' })
    expect(frt.records.map((r) => [r.record_id, r.at, r.started_at, r.value])).toEqual([
      [org.ref('T5'), '2026-01-05T00:10:00.000Z', '2026-01-04T23:50:00.000Z', 1200],
      [org.ref('T1'), '2026-01-05T09:20:00.000Z', '2026-01-05T09:00:00.000Z', 1200],
      [org.ref('T2'), '2026-01-05T09:31:00.000Z', '2026-01-05T09:30:00.000Z', 60],
      [org.ref('T4'), '2026-01-05T13:45:30.000Z', '2026-01-05T13:00:00.000Z', 2730],
    ])
  },

  'the records a page of two at a time': async (org) => {
    const paged = await pagedRecords(org, { ...DAY_WINDOW, metric: 'tickets.created' }, 2)
    expect(paged.records.map((r) => r.record_id)).toEqual(['T1', 'T2', 'T3', 'T4', 'T6'].map((n) => org.ref(n)))
  },

  'the records of one bucket and of one group': async (org) => {
    const nine = await allRecords(org, {
      ...DAY_WINDOW,
      metric: 'tickets.created',
      bucket: '2026-01-05T09:00:00.000Z',
      granularity: 'hour',
    })
    expect(nine.records.map((r) => r.record_id)).toEqual([org.ref('T1'), org.ref('T2')])
    const billing = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.created', group_by: 'tag', group: 'billing' })
    expect(billing.records.map((r) => r.record_id)).toEqual([org.ref('T1'), org.ref('T3'), org.ref('T6')])
    const csv = await org.csv('records', { ...DAY_WINDOW, metric: 'tickets.created', group_by: 'tag', group: 'billing' })
    expect(csv.map((row) => row.slice(0, 3))).toEqual([
      ['record_type', 'record_id', 'at'],
      ['ticket', org.ref('T1'), '2026-01-05T09:00:00.000Z'],
      ['ticket', org.ref('T3'), '2026-01-05T10:00:00.000Z'],
      ['ticket', org.ref('T6'), '2026-01-05T23:00:00.000Z'],
    ])
  },

  'an agent sees the records of its own tickets only': async (org) => {
    const created = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.created' }, 'agent')
    expect(created.records.map((r) => r.record_id)).toEqual([org.ref('T1')])
    const solved = await allRecords(org, { ...DAY_WINDOW, metric: 'tickets.solved' }, 'agent')
    expect(solved.records.map((r) => r.record_id)).toEqual([org.ref('T5'), org.ref('T1'), org.ref('T1')])
  },

  'the agents report: tickets solved by their assignee': async (org) => {
    const report = await org.report<AgentsReport>('agents', DAY_WINDOW, 'supervisor')
    const row = {
      agent_id: org.userId('agent'),
      status_seconds: {},
      tickets_solved: 3,
      calls_answered: 0,
      handle_time: NO_DURATION,
      sessions_closed: 0,
      logged_in_seconds: 0,
      occupancy: null,
    }
    expect(report.agents).toEqual([row])
    expect(csvObjects(await org.csv('agents', DAY_WINDOW, 'supervisor'))).toEqual(agentsCsvObjects([row]))
  },
})
