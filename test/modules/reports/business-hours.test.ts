// Business hours: with the organization's schedule (New York, Monday to Friday 09:00-17:00, a holiday on
// Monday 2026-01-19), hours=business counts durations only inside it; hours=calendar (the default)
// counts all of them. Tickets answered over a weekend and over the holiday, a call answered just after
// closing time, a session answered on the holiday, a ticket answered across the DST change. Every value
// by hand; before and after the fold. Without a schedule, hours=business is refused naming `hours`.
import { expect, test } from 'bun:test'
import {
  allRecords,
  beforeAndAfterFold,
  duration,
  expectError,
  NO_DURATION,
  type Org,
  play,
  queryString,
  reportsApp,
  type Summary,
  summaryCsvObjects,
  summaryFigures,
  csvObjects,
  type Timeseries,
  type Value,
} from './helpers.ts'

const { app, orgs } = await reportsApp({
  start: '2026-01-09T12:00:00Z',
  orgs: [{ name: 'acme' }, { name: 'globex', foldsMidway: true }, { name: 'initech' }],
})
const fixtureOrgs = orgs.slice(0, 2)
const withoutSchedule = orgs[2]!

const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }]
const SETTINGS = {
  time_zone: 'America/New_York',
  business_hours: {
    weekly: { mon: NINE_TO_FIVE, tue: NINE_TO_FIVE, wed: NINE_TO_FIVE, thu: NINE_TO_FIVE, fri: NINE_TO_FIVE, sat: [], sun: [] },
    holidays: ['2026-01-19'],
  },
}

const ticket = async (org: Org, name: string) => {
  org.ids[name] = (await org.ok<{ id: string }>('admin', 'POST', '/api/v1/tickets', { subject: name, channel: 'email' }, 201)).id
}
const reply = (org: Org, name: string) =>
  org.ok('agent', 'POST', `/api/v1/tickets/${org.ref(name)}/comments`, { body: 'Here is what to do', public: true }, 201)

await play(app, fixtureOrgs, [
  {
    at: '2026-01-09T12:00:00Z',
    run: async (org) => {
      const saved = await org.ok('admin', 'PUT', '/api/v1/reports/settings', SETTINGS)
      expect(saved).toEqual({ time_zone: 'America/New_York', business_hours: { ...SETTINGS.business_hours, zone: 'America/New_York' } })
      org.ids.contact = (await org.ok<{ id: string }>('admin', 'POST', '/api/v1/contacts', { name: 'Grace Customer' }, 201)).id
    },
  },
  // B1: created Friday 16:00, answered Monday 10:00 (2 h of business time, 66 h of calendar time), solved Monday 16:30.
  { at: '2026-01-09T21:00:00Z', run: (org) => ticket(org, 'B1') },
  { at: '2026-01-12T15:00:00Z', run: (org) => reply(org, 'B1'), fold: true },
  // B3: created Wednesday 10:00, answered 10:20.
  { at: '2026-01-12T21:30:00Z', run: (org) => org.ok('agent', 'PATCH', `/api/v1/tickets/${org.ref('B1')}`, { status: 'solved' }) },
  { at: '2026-01-14T15:00:00Z', run: (org) => ticket(org, 'B3') },
  { at: '2026-01-14T15:20:00Z', run: (org) => reply(org, 'B3') },
  // A call begun Wednesday 16:59:50, answered 17:00:20 (10 s of it in business hours), 300 s of talk after closing.
  {
    at: '2026-01-14T21:59:50Z',
    run: async (org) => {
      const call = await org.ok<{ id: string }>(
        'admin',
        'POST',
        '/api/v1/calls',
        { direction: 'inbound', from: '+14155550100', to: '+14155550199' },
        201,
      )
      org.ids.call = call.id
    },
  },
  {
    at: '2026-01-14T22:00:20Z',
    run: (org) => org.ok('admin', 'POST', `/api/v1/calls/${org.ref('call')}/answer`, { agent_id: org.userId('agent') }),
  },
  { at: '2026-01-14T22:05:20Z', run: (org) => org.ok('admin', 'POST', `/api/v1/calls/${org.ref('call')}/end`, {}), fold: true },
  // B2: created Friday 18:00 (closed), answered Tuesday 09:30 after the Monday holiday: 30 minutes.
  { at: '2026-01-16T23:00:00Z', run: (org) => ticket(org, 'B2') },
  // A session created Saturday 10:00, answered on the holiday (no business time), closed Tuesday 10:00 (1 h).
  {
    at: '2026-01-17T15:00:00Z',
    run: async (org) => {
      const made = await org.ok<{ id: string }>(
        'admin',
        'POST',
        '/api/v1/engagements',
        { contact_id: org.ref('contact'), channel: 'chat', assignee_id: org.userId('agent') },
        201,
      )
      org.ids.session = made.id
    },
  },
  {
    at: '2026-01-19T16:00:00Z',
    run: (org) => org.ok('agent', 'POST', `/api/v1/engagements/${org.ref('session')}/messages`, { direction: 'out', body: 'Hi' }, 201),
  },
  { at: '2026-01-20T14:30:00Z', run: (org) => reply(org, 'B2') },
  { at: '2026-01-20T15:00:00Z', run: (org) => org.ok('agent', 'POST', `/api/v1/engagements/${org.ref('session')}/close`, {}) },
  // B4: created Friday 2026-03-06 16:00 EST, answered Monday 03-09 10:00 EDT: 65 h of calendar time (the DST
  // change took an hour), 2 h of business time.
  { at: '2026-03-06T21:00:00Z', run: (org) => ticket(org, 'B4') },
  { at: '2026-03-09T14:00:00Z', run: (org) => reply(org, 'B4') },
  { at: '2026-03-10T00:00:00Z', run: async () => {} },
])

const JANUARY = { from: '2026-01-01', to: '2026-02-01' }
const METRICS = [
  'tickets.first_response_time',
  'tickets.resolution_time',
  'calls.speed_of_answer',
  'calls.handle_time',
  'engagements.first_response_time',
  'engagements.resolution_time',
  'tickets.created',
]
/** [calendar, business] of each metric over January, by hand. */
const JANUARY_FIGURES: Record<string, [Value, Value]> = {
  // B1 237600 (3 significant figures: 237000), B3 1200, B2 315000; in business time 7200, 1200, 1800.
  'tickets.first_response_time': [duration(3, 184_600, 237_600, 315_000), duration(3, 3400, 1800, 7200)],
  // B1: Friday 21:00Z to Monday 21:30Z; in business time Friday 16-17 and Monday 09-16:30.
  'tickets.resolution_time': [duration(1, 261_000, 261_000, 261_000), duration(1, 30_600, 30_600, 30_600)],
  'calls.speed_of_answer': [duration(1, 30, 30, 30), duration(1, 10, 10, 10)],
  'calls.handle_time': [duration(1, 300, 300, 300), duration(1, 0, 0, 0)],
  // Saturday 10:00 to Monday (the holiday) 11:00: 49 h, none of it business time.
  'engagements.first_response_time': [duration(1, 176_400, 176_400, 176_400), duration(1, 0, 0, 0)],
  // Saturday 10:00 to Tuesday 10:00: 72 h, of which Tuesday 09-10.
  'engagements.resolution_time': [duration(1, 259_200, 259_200, 259_200), duration(1, 3600, 3600, 3600)],
  'tickets.created': [3, 3],
}

test('hours=business without business hours is 400 naming hours', async () => {
  const response = await withoutSchedule.send(
    'admin',
    'GET',
    `/api/v1/reports/summary?${queryString({ ...JANUARY, metrics: 'tickets.first_response_time', hours: 'business' })}`,
  )
  await expectError(response, 400, 'VALIDATION_FAILED', 'hours')
})

beforeAndAfterFold(app, () => fixtureOrgs, {
  'January in calendar and in business time': async (org) => {
    for (const [index, hours] of (['calendar', 'business'] as const).entries()) {
      const query = { ...JANUARY, metrics: METRICS.join(','), hours, compare: 'none' }
      const summary = await org.report<Summary>('summary', query)
      expect(summary).toMatchObject({ tz: 'America/New_York', hours, from: '2026-01-01T05:00:00.000Z', to: '2026-02-01T05:00:00.000Z' })
      expect<unknown>(Object.fromEntries(Object.entries(summaryFigures(summary)).map(([metric, f]) => [metric, f.value]))).toEqual(
        Object.fromEntries(Object.entries(JANUARY_FIGURES).map(([metric, values]) => [metric, values[index]!])),
      )
      const csv = csvObjects(await org.csv('summary', query))
      expect(csv.map((row) => [row.metric, row.value, row.count, row.mean, row.p50, row.p90])).toEqual(
        summaryCsvObjects(
          METRICS.map((metric) => ({
            metric,
            unit: metric === 'tickets.created' ? 'count' : 'seconds',
            duration: metric !== 'tickets.created',
            value: JANUARY_FIGURES[metric]![index]!,
            previous: null,
          })),
        ).map((row) => [row.metric, row.value, row.count, row.mean, row.p50, row.p90]),
      )
    }
  },

  'first response time per ISO week in business time': async (org) => {
    const series = await org.report<Timeseries>('timeseries', {
      ...JANUARY,
      metric: 'tickets.first_response_time',
      granularity: 'week',
      hours: 'business',
    })
    expect(series.series[0]!.points.map((p) => [p.start, p.label, p.value])).toEqual([
      ['2025-12-29T05:00:00.000Z', '2026-W01', NO_DURATION],
      ['2026-01-05T05:00:00.000Z', '2026-W02', NO_DURATION],
      ['2026-01-12T05:00:00.000Z', '2026-W03', duration(2, 4200, 1200, 7200)],
      ['2026-01-19T05:00:00.000Z', '2026-W04', duration(1, 1800, 1800, 1800)],
      ['2026-01-26T05:00:00.000Z', '2026-W05', NO_DURATION],
    ])
    expect(series.series[0]!.total).toEqual(duration(3, 3400, 1800, 7200))
  },

  'the records carry both values': async (org) => {
    const records = await allRecords(org, { ...JANUARY, metric: 'tickets.first_response_time', hours: 'business' })
    expect(records.records.map((r) => [r.record_id, r.started_at, r.at, r.value, r.business_value])).toEqual([
      [org.ref('B1'), '2026-01-09T21:00:00.000Z', '2026-01-12T15:00:00.000Z', 237_600, 7200],
      [org.ref('B3'), '2026-01-14T15:00:00.000Z', '2026-01-14T15:20:00.000Z', 1200, 1200],
      [org.ref('B2'), '2026-01-16T23:00:00.000Z', '2026-01-20T14:30:00.000Z', 315_000, 1800],
    ])
  },

  'across the DST change: 65 calendar hours, 2 business hours': async (org) => {
    const figures = async (hours: string) =>
      summaryFigures(
        await org.report<Summary>('summary', {
          from: '2026-03-01',
          to: '2026-04-01',
          metrics: 'tickets.first_response_time',
          hours,
          compare: 'none',
        }),
      )['tickets.first_response_time']!.value
    expect(await figures('calendar')).toEqual(duration(1, 234_000, 234_000, 234_000))
    expect(await figures('business')).toEqual(duration(1, 7200, 7200, 7200))
  },
})
