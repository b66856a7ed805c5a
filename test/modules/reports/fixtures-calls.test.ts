// Call metrics on a hand-made day (2026-01-05, UTC), every figure computed by hand. A call counts once it
// has ended, at the time it began: answered (its wait is the speed of answer, its talk the handle time),
// abandoned (ended unanswered as canceled or no_answer), or neither (busy); a call still in progress is
// not counted yet, one begun before midnight and ended after it counts on the day it began. Two
// organizations go through it; the second is folded part way.
import { expect } from 'bun:test'
import {
  type AgentsReport,
  agentsCsvObjects,
  allRecords,
  beforeAndAfterFold,
  change,
  csvObjects,
  duration,
  NO_DURATION,
  type Org,
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

type AgentRole = 'agent' | 'supervisor'
const create = async (org: Org, name: string, body: { direction?: string; queue?: string; agent?: AgentRole }) => {
  const made = await org.ok<{ id: string }>(
    'admin',
    'POST',
    '/api/v1/calls',
    {
      direction: body.direction ?? 'inbound',
      from: '+14155550100',
      to: '+14155550199',
      ...(body.queue === undefined ? {} : { queue: body.queue }),
      ...(body.agent === undefined ? {} : { agent_id: org.userId(body.agent) }),
    },
    201,
  )
  org.ids[name] = made.id
}
const ring = (org: Org, name: string, agent?: AgentRole) =>
  org.ok('admin', 'POST', `/api/v1/calls/${org.ref(name)}/ring`, agent === undefined ? {} : { agent_id: org.userId(agent) })
const answer = (org: Org, name: string, agent: AgentRole) =>
  org.ok('admin', 'POST', `/api/v1/calls/${org.ref(name)}/answer`, { agent_id: org.userId(agent) })
const end = (org: Org, name: string, status = 'completed') => org.ok('admin', 'POST', `/api/v1/calls/${org.ref(name)}/end`, { status })

await play(app, orgs, [
  // The day before: C9 begins before midnight and is canceled after it (abandoned, counted on 01-04).
  { at: '2026-01-04T23:58:00Z', run: (org) => create(org, 'C9', { queue: 'sales' }) },
  { at: '2026-01-05T00:02:00Z', run: (org) => end(org, 'C9', 'canceled'), fold: true },
  // C1: rings at the agent, answered after 10 s, 300 s of talk.
  { at: '2026-01-05T10:00:00Z', run: (org) => create(org, 'C1', { queue: 'sales', agent: 'agent' }) },
  { at: '2026-01-05T10:00:05Z', run: (org) => ring(org, 'C1') },
  { at: '2026-01-05T10:00:10Z', run: (org) => answer(org, 'C1', 'agent') },
  { at: '2026-01-05T10:05:10Z', run: (org) => end(org, 'C1') },
  // C2: answered from the queue by the supervisor after 25 s, 120 s of talk.
  { at: '2026-01-05T10:10:00Z', run: (org) => create(org, 'C2', { queue: 'sales' }) },
  { at: '2026-01-05T10:10:25Z', run: (org) => answer(org, 'C2', 'supervisor') },
  { at: '2026-01-05T10:12:25Z', run: (org) => end(org, 'C2'), fold: true },
  // C3: rings at the agent, nobody answers (abandoned after 40 s).
  { at: '2026-01-05T11:00:00Z', run: (org) => create(org, 'C3', { queue: 'support' }) },
  { at: '2026-01-05T11:00:02Z', run: (org) => ring(org, 'C3', 'agent') },
  { at: '2026-01-05T11:00:40Z', run: (org) => end(org, 'C3', 'no_answer') },
  // C4: the caller hangs up in the queue (abandoned after 5 s).
  { at: '2026-01-05T11:30:00Z', run: (org) => create(org, 'C4', { queue: 'support' }) },
  { at: '2026-01-05T11:30:05Z', run: (org) => end(org, 'C4', 'canceled') },
  // C5: outbound, no queue, answered after 20 s (within the default threshold), 600 s of talk.
  { at: '2026-01-05T12:00:00Z', run: (org) => create(org, 'C5', { direction: 'outbound', agent: 'agent' }) },
  { at: '2026-01-05T12:00:20Z', run: (org) => answer(org, 'C5', 'agent') },
  { at: '2026-01-05T12:10:20Z', run: (org) => end(org, 'C5') },
  // C6: busy: offered, neither answered nor abandoned.
  { at: '2026-01-05T13:00:00Z', run: (org) => create(org, 'C6', { queue: 'sales' }) },
  { at: '2026-01-05T13:00:01Z', run: (org) => ring(org, 'C6') },
  { at: '2026-01-05T13:00:03Z', run: (org) => end(org, 'C6', 'busy') },
  // C7: answered and still in progress: not counted yet.
  { at: '2026-01-05T14:00:00Z', run: (org) => create(org, 'C7', { queue: 'sales' }) },
  { at: '2026-01-05T14:00:15Z', run: (org) => answer(org, 'C7', 'agent'), fold: true },
  // C8: begins 30 s before midnight, answered after it (40 s), 60 s of talk: counted on 01-05.
  { at: '2026-01-05T23:59:30Z', run: (org) => create(org, 'C8', { queue: 'sales' }) },
  { at: '2026-01-05T23:59:31Z', run: (org) => ring(org, 'C8') },
  { at: '2026-01-06T00:00:10Z', run: (org) => answer(org, 'C8', 'supervisor') },
  { at: '2026-01-06T00:01:10Z', run: (org) => end(org, 'C8') },
  { at: '2026-01-06T01:00:00Z', run: async () => {} },
])

const DAY_WINDOW = { from: '2026-01-05', to: '2026-01-06', tz: 'UTC' }
const METRICS = [
  'calls.offered',
  'calls.answered',
  'calls.abandoned',
  'calls.abandonment_rate',
  'calls.service_level',
  'calls.speed_of_answer',
  'calls.handle_time',
]
/** The day (C1-C6 and C8) and the day before (C9), by hand. */
const FIGURES = [
  { metric: 'calls.offered', unit: 'count', duration: false, value: 7, previous: 1 },
  { metric: 'calls.answered', unit: 'count', duration: false, value: 4, previous: 0 },
  { metric: 'calls.abandoned', unit: 'count', duration: false, value: 2, previous: 1 },
  // 2 / (4 + 2); the day before 1 / (0 + 1).
  { metric: 'calls.abandonment_rate', unit: 'ratio', duration: false, value: 0.3333, previous: 1 },
  // Answered within 20 s: C1 (10 s), C5 (20 s), of 7 offered.
  { metric: 'calls.service_level', unit: 'ratio', duration: false, value: 0.2857, previous: 0 },
  // Waits 10, 25, 20, 40: mean 23.75.
  { metric: 'calls.speed_of_answer', unit: 'seconds', duration: true, value: duration(4, 23.8, 20, 40), previous: NO_DURATION },
  // Talk 300, 120, 600, 60.
  { metric: 'calls.handle_time', unit: 'seconds', duration: true, value: duration(4, 270, 120, 600), previous: NO_DURATION },
] as const

beforeAndAfterFold(app, () => orgs, {
  'the summary of the day, beside the day before': async (org) => {
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: METRICS.join(',') })
    expect(summaryFigures(summary)).toEqual(
      Object.fromEntries(FIGURES.map((f) => [f.metric, { value: f.value, previous: f.previous, change: change(f.value, f.previous) }])),
    )
    expect(csvObjects(await org.csv('summary', { ...DAY_WINDOW, metrics: METRICS.join(',') }))).toEqual(summaryCsvObjects(FIGURES))
  },

  'the service level within another threshold': async (org) => {
    // Within 30 s: C1, C2 (25 s), C5, of 7.
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: 'calls.service_level', threshold: 30 })
    expect(summaryFigures(summary)['calls.service_level']!.value).toBe(0.4286)
  },

  'calls offered per hour, by the time they began': async (org) => {
    const series = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'calls.offered', granularity: 'hour' })
    const counts: Record<number, number> = { 10: 2, 11: 2, 12: 1, 13: 1, 23: 1 }
    expect(series.series.map((s) => [s.group, s.total])).toEqual([[null, 7]])
    expect(pointsOf(series.series[0]!)).toEqual(utcHourLabels('2026-01-05').map((label, h) => [label, counts[h] ?? 0]))
  },

  'calls offered by queue and by direction; answered by agent': async (org) => {
    const byQueue = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'calls.offered', group_by: 'queue' })
    expect(byQueue.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      ['sales', 4, [['2026-01-05', 4]]],
      ['support', 2, [['2026-01-05', 2]]],
      ['none', 1, [['2026-01-05', 1]]],
    ])
    const byDirection = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'calls.offered', group_by: 'direction' })
    expect(byDirection.series.map((s) => [s.group, s.total])).toEqual([
      ['inbound', 6],
      ['outbound', 1],
    ])
    const query = { ...DAY_WINDOW, metric: 'calls.abandonment_rate', group_by: 'queue' }
    const rate = await org.report<Timeseries>('timeseries', query)
    // sales: C1, C2, C8 answered, none abandoned (C6 was busy); support: C3, C4 abandoned; no queue: C5 answered.
    expect(rate.series.map((s) => [s.group, s.total])).toEqual([
      ['support', 1],
      ['none', 0],
      ['sales', 0],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(rate, false))
  },

  'speed of answer and handle time by agent': async (org) => {
    const query = { ...DAY_WINDOW, metric: 'calls.handle_time', group_by: 'agent' }
    const handle = await org.report<Timeseries>('timeseries', query)
    expect(handle.series.map((s) => [s.group, s.total])).toEqual([
      // C1 300 s, C5 600 s; C2 120 s, C8 60 s. C3 and C4 were abandoned: no handle time.
      [org.userId('agent'), duration(2, 450, 300, 600)],
      [org.userId('supervisor'), duration(2, 90, 60, 120)],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(handle, true))
    const speed = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'calls.speed_of_answer', group_by: 'agent' })
    expect(speed.series.map((s) => [s.group, s.total])).toEqual([
      [org.userId('supervisor'), duration(2, 32.5, 25, 40)],
      [org.userId('agent'), duration(2, 15, 10, 20)],
    ])
  },

  'the records behind the figures': async (org) => {
    const offered = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.offered' })
    expect(offered.records.map((r) => [r.record_id, r.at, r.value])).toEqual([
      [org.ref('C1'), '2026-01-05T10:00:00.000Z', 10],
      [org.ref('C2'), '2026-01-05T10:10:00.000Z', 25],
      [org.ref('C3'), '2026-01-05T11:00:00.000Z', 40],
      [org.ref('C4'), '2026-01-05T11:30:00.000Z', 5],
      [org.ref('C5'), '2026-01-05T12:00:00.000Z', 20],
      [org.ref('C6'), '2026-01-05T13:00:00.000Z', 3],
      [org.ref('C8'), '2026-01-05T23:59:30.000Z', 40],
    ])
    expect(offered.records[2]!.dimensions).toEqual({ direction: 'inbound', queue: 'support', agent: org.userId('agent') })
    const abandoned = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.abandoned' })
    expect(abandoned.records.map((r) => r.record_id)).toEqual([org.ref('C3'), org.ref('C4')])
    // A ratio's records are those of its first stream: the abandoned calls of the abandonment rate.
    const rate = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.abandonment_rate' })
    expect(rate.records.map((r) => r.record_id)).toEqual([org.ref('C3'), org.ref('C4')])
    const handled = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.handle_time' })
    expect(handled.records.map((r) => [r.record_id, r.started_at, r.value])).toEqual([
      [org.ref('C1'), '2026-01-05T10:00:10.000Z', 300],
      [org.ref('C2'), '2026-01-05T10:10:25.000Z', 120],
      [org.ref('C5'), '2026-01-05T12:00:20.000Z', 600],
      [org.ref('C8'), '2026-01-06T00:00:10.000Z', 60],
    ])
    const answered = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.answered' })
    expect(answered.total_count).toBe(4)
    const before = await allRecords(org, { from: '2026-01-04', to: '2026-01-05', tz: 'UTC', metric: 'calls.abandoned' })
    expect(before.records.map((r) => [r.record_id, r.value])).toEqual([[org.ref('C9'), 240]])
  },

  'an agent sees its own calls only': async (org) => {
    const offered = await allRecords(org, { ...DAY_WINDOW, metric: 'calls.offered' }, 'agent')
    expect(offered.records.map((r) => r.record_id)).toEqual([org.ref('C1'), org.ref('C3'), org.ref('C5')])
  },

  'the agents report: calls answered and handle time': async (org) => {
    const rows = [
      {
        agent_id: org.userId('agent'),
        status_seconds: {},
        tickets_solved: 0,
        calls_answered: 2,
        handle_time: duration(2, 450, 300, 600),
        sessions_closed: 0,
        logged_in_seconds: 0,
        occupancy: null,
      },
      {
        agent_id: org.userId('supervisor'),
        status_seconds: {},
        tickets_solved: 0,
        calls_answered: 2,
        handle_time: duration(2, 90, 60, 120),
        sessions_closed: 0,
        logged_in_seconds: 0,
        occupancy: null,
      },
    ].sort((a, b) => (a.agent_id < b.agent_id ? -1 : 1))
    const report = await org.report<AgentsReport>('agents', DAY_WINDOW)
    expect(report.agents).toEqual(rows)
    expect(csvObjects(await org.csv('agents', DAY_WINDOW))).toEqual(agentsCsvObjects(rows))
    const own = await org.report<AgentsReport>('agents', DAY_WINDOW, 'agent')
    expect(own.agents).toEqual(rows.filter((row) => row.agent_id === org.userId('agent')))
  },
})
