// One source of truth: a report's figure equals the total_count of the list that selects the same
// records (tickets by creation, calls by direction and start, contacts, leads, survey responses), the CSV
// of every report holds exactly the numbers of its JSON, `records` lists what each figure counts (a
// count's total_count, a duration's sum behind its mean) and the agents' rows add up to the figures
// grouped by agent. On one organization's mid-sized history made by seeded random steps (the fold run at
// random points between them) plus contacts, leads and surveys; then a merged contact and a deleted ticket
// on their own organizations.
import { afterAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { foldAll } from '../../../src/modules/reports/index.ts'
import { makeTestApp } from '../../helpers/app.ts'
import {
  allRecords,
  DAY,
  HOUR,
  iso,
  type Json,
  MIN,
  reportJson,
  runSteps,
  stepArb,
  type Window,
  World,
  windowQuery,
} from './helpers-random.ts'

const app = await makeTestApp({ PUBLIC_URL: 'https://switchboard.example' })
afterAll(() => app.close())
const fold = () => foldAll(app.context)

const world = await World.create(app, 'acme')
const start = app.clock.now()

// The history: 120 seeded random steps (tickets, comments, status moves, calls, the clock, folds)...
const [steps] = fc.sample(fc.array(stepArb, { minLength: 120, maxLength: 120 }), { seed: 20_260_101, numRuns: 1 })
// People answer a few tickets too (the seeded comments happen to be private or made with tokens).
const answers = [0, 1, 2, 3].flatMap((t) => [
  { kind: 'advance' as const, ms: 17 * MIN + t * 1_001 },
  { kind: 'comment' as const, t, public: true, by: 'admin' as const },
])
const made = await runSteps(world, [...steps!, ...answers], fold)
// ...calls that nobody answered (the caller hung up; it rang out)...
for (const [direction, status, end] of [
  ['inbound', 'queued', 'canceled'],
  ['inbound', 'ringing', 'no_answer'],
  ['outbound', 'ringing', 'no_answer'],
] as const) {
  const call = await world.ok('admin', 'POST', '/api/v1/calls', { direction, from: '+14155550100', to: '+14155550199', status }, 201)
  app.clock.advance(41_500)
  await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/end`, { status: end })
}
// ...contacts and leads (one converted), and surveys offered on some tickets, some answered.
for (let i = 0; i < 5; i++) {
  await world.ok('admin', 'POST', '/api/v1/contacts', { name: `Contact ${i}`, email: `c${i}@example.com` }, 201)
  app.clock.advance(23 * MIN)
}
const leads: string[] = []
for (let i = 0; i < 4; i++) {
  leads.push((await world.ok('admin', 'POST', '/api/v1/leads', { name: `Lead ${i}`, source: i % 2 ? 'web' : 'fair' }, 201)).id)
  app.clock.advance(37 * MIN)
}
await world.ok('admin', 'PATCH', `/api/v1/leads/${leads[0]}`, { status: 'contacted' })
await world.ok('admin', 'PATCH', `/api/v1/leads/${leads[0]}`, { status: 'qualified' })
app.clock.advance(2 * HOUR)
await world.ok('admin', 'POST', `/api/v1/leads/${leads[0]}/convert`, { contact: { create: {} } })
const SCORES: Record<string, (number | null)[]> = { csat: [5, 3, null, 4, 1], nps: [10, 6, 8, null, 9], ces: [7, 2, null, 4] }
for (const [type, scores] of Object.entries(SCORES)) {
  for (const [i, score] of scores.entries()) {
    const ticket = made.tickets[i]!
    const offered = await world.ok(
      'admin',
      'POST',
      '/api/v1/surveys',
      { survey_type: type, subject_type: 'ticket', subject_id: ticket.id },
      201,
    )
    app.clock.advance(11 * MIN)
    if (score === null) continue
    const path = new URL(offered.url as string).pathname
    const answer = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ score }),
    })
    expect(answer.status).toBe(200)
    app.clock.advance(7 * MIN)
  }
}
await fold()
// A few changes after the last fold: the reports read them from the log.
await world.ok('admin', 'POST', '/api/v1/tickets', { subject: 'Late', priority: 'urgent' }, 201)
await world.ok('admin', 'POST', '/api/v1/contacts', { name: 'Late contact' }, 201)
app.clock.advance(3 * MIN)
const end = app.clock.now()

/** The whole history, and windows cut at arbitrary milliseconds inside it. */
const WINDOWS: Window[] = [
  { from: start - DAY, to: end + DAY, zone: 'UTC', threshold: 20 },
  ...fc
    .sample(fc.tuple(fc.noBias(fc.integer({ min: 0, max: end - start })), fc.noBias(fc.integer({ min: 0, max: end - start }))), {
      seed: 7,
      numRuns: 5,
    })
    .map(([a, b]) => ({ from: start + Math.min(a, b), to: start + Math.max(a, b) + 1, zone: 'Asia/Kathmandu', threshold: 20 })),
]

const summaryOf = async (w: Window, metrics: string[]) => {
  const body = await reportJson(world, 'admin', `/api/v1/reports/summary?metrics=${metrics.join(',')}&compare=none&${windowQuery(w)}`)
  return Object.fromEntries((body.metrics as Json[]).map((m) => [m.metric, m.value]))
}
const groupTotals = async (w: Window, metric: string, groupBy: string) => {
  const body = await reportJson(
    world,
    'admin',
    `/api/v1/reports/timeseries?metric=${metric}&group_by=${groupBy}&granularity=month&${windowQuery(w)}`,
  )
  return Object.fromEntries((body.series as Json[]).map((s) => [s.group, s.total]))
}
/** A list's total_count for `query`, as the admin sees it. */
const listTotal = async (path: string, query: Record<string, string>) => {
  const body = await world.ok('admin', 'GET', `${path}?${new URLSearchParams({ ...query, include_total: 'true', page_size: '1' })}`)
  return body.total_count as number
}
/** A report's [from, to) as the lists' exclusive bounds. */
const between = (w: Window, field: string) => ({ [`${field}_after`]: iso(w.from - 1), [`${field}_before`]: iso(w.to) })
const label = (w: Window) => `${iso(w.from)}..${iso(w.to)}`

describe('a figure equals the total_count of the list selecting the same records', () => {
  test('the history has something of every kind compared below', async () => {
    const figures = await summaryOf(WINDOWS[0]!, [
      'tickets.created',
      'tickets.solved',
      'tickets.reopened',
      'tickets.first_response_time',
      'calls.offered',
      'calls.answered',
      'calls.abandoned',
      'crm.contacts_created',
      'crm.leads_created',
      'crm.leads_converted',
      'surveys.offered',
    ])
    for (const [metric, value] of Object.entries(figures))
      expect({ metric, some: (typeof value === 'number' ? value : (value as Json).count) > 0 }).toEqual({ metric, some: true })
  })

  test.each(WINDOWS.map((w) => [label(w), w] as const))('tickets.created, over %s', async (_, w) => {
    const figures = await summaryOf(w, ['tickets.created'])
    expect(figures['tickets.created']).toBe(await listTotal('/api/v1/tickets', between(w, 'created')))
  })

  test.each(WINDOWS.map((w) => [label(w), w] as const))('calls offered, answered and abandoned by direction, over %s', async (_, w) => {
    const [offered, answered, abandoned] = await Promise.all(
      ['calls.offered', 'calls.answered', 'calls.abandoned'].map((metric) => groupTotals(w, metric, 'direction')),
    )
    for (const direction of ['inbound', 'outbound']) {
      const list = (status?: string) =>
        listTotal('/api/v1/calls', { direction, ...between(w, 'initialized'), ...(status ? { status } : {}) })
      const expected = {
        direction,
        // Offered: the calls that ended (not queued, ringing or in progress), by the time they began.
        offered: (await list()) - (await list('active')),
        // Answered: a call answered ends `completed`, and only an answered one does.
        answered: await list('completed'),
        abandoned: (await list('no_answer')) + (await list('canceled')),
      }
      expect({
        direction,
        offered: offered![direction] ?? 0,
        answered: answered![direction] ?? 0,
        abandoned: abandoned![direction] ?? 0,
      }).toEqual(expected)
    }
  })

  test.each(WINDOWS.map((w) => [label(w), w] as const))('crm.contacts_created and crm.leads_created, over %s', async (_, w) => {
    const figures = await summaryOf(w, ['crm.contacts_created', 'crm.leads_created'])
    expect(figures).toEqual({
      'crm.contacts_created': await listTotal('/api/v1/contacts', between(w, 'created')),
      'crm.leads_created': await listTotal('/api/v1/leads', between(w, 'created')),
    })
  })

  test('crm.leads_converted over the whole history: the converted leads', async () => {
    expect((await summaryOf(WINDOWS[0]!, ['crm.leads_converted']))['crm.leads_converted']).toBe(
      await listTotal('/api/v1/leads', { status: 'converted' }),
    )
  })

  test.each(WINDOWS.map((w) => [label(w), w] as const))('surveys offered, response rate, CSAT, NPS and CES, over %s', async (_, w) => {
    const figures = await summaryOf(w, ['surveys.offered', 'surveys.response_rate', 'surveys.csat', 'surveys.nps', 'surveys.ces'])
    const offered = await listTotal('/api/v1/survey-responses', between(w, 'offered'))
    const responded = await listTotal('/api/v1/survey-responses', { ...between(w, 'offered'), status: 'responded' })
    const answers = (survey_type: string, more: Record<string, string> = {}) =>
      listTotal('/api/v1/survey-responses', { survey_type, ...between(w, 'responded'), ...more })
    const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000)
    const csat = await answers('csat')
    const nps = await answers('nps')
    const promoters = await answers('nps', { score_min: '9' })
    const detractors = await answers('nps', { score_max: '6' })
    const ces = await world.ok(
      'admin',
      'GET',
      `/api/v1/survey-responses?${new URLSearchParams({ survey_type: 'ces', ...between(w, 'responded'), page_size: '100' })}`,
    )
    const cesScores = (ces.survey_responses as Json[]).map((r) => r.score as number)
    expect(figures).toEqual({
      'surveys.offered': offered,
      'surveys.response_rate': ratio(responded, offered),
      'surveys.csat': ratio(await answers('csat', { score_min: '4' }), csat),
      'surveys.nps': nps === 0 ? null : Math.round(((promoters - detractors) / nps) * 1000) / 10,
      'surveys.ces': cesScores.length === 0 ? null : Math.round((cesScores.reduce((a, b) => a + b, 0) / cesScores.length) * 100) / 100,
    })
  })
})

describe('records list what each figure counts', () => {
  test.each(WINDOWS.map((w) => [label(w), w] as const))(
    'every count: total_count is the figure; every duration: the records behind its count and mean, over %s',
    async (_, w) => {
      const metrics = ((await reportJson(world, 'admin', '/api/v1/reports/metrics')).metrics as Json[]).filter(
        (m) => m.unit === 'count' || m.unit === 'seconds',
      )
      // Durations are the metrics whose value is a {count, mean, p50, p90}.
      const figures = await summaryOf(w, metrics.map((m) => m.id as string).slice(0, 20))
      const more =
        metrics.length > 20
          ? await summaryOf(
              w,
              metrics.slice(20).map((m) => m.id as string),
            )
          : {}
      Object.assign(figures, more)
      for (const metric of metrics) {
        const id = metric.id as string
        const value = figures[id]
        if (typeof value === 'object' && value !== null) {
          const { records } = await allRecords(world, 'admin', `metric=${id}&${windowQuery(w)}`)
          const values = records.map((r) => r.value).filter((v): v is number => v !== null)
          const sum = values.reduce((a, b) => a + b, 0)
          expect({ id, count: values.length, mean: values.length === 0 ? null : Math.round((sum / values.length) * 10) / 10 }).toEqual({
            id,
            count: value.count,
            mean: value.mean,
          })
        } else if (metric.unit === 'count' && !/time$/.test(id)) {
          const { total_count, records } = await allRecords(world, 'admin', `metric=${id}&${windowQuery(w)}`)
          expect({ id, total_count, listed: records.length }).toEqual({ id, total_count: value, listed: value })
        }
      }
    },
  )
})

describe('a point of a series opens into its records', () => {
  test.each([
    ['tickets.created', 'hour', 'Asia/Kathmandu', 'channel'],
    ['tickets.solved', 'day', 'America/New_York', 'assignee'],
    ['calls.offered', 'hour', 'Australia/Lord_Howe', 'direction'],
    ['tickets.first_response_time', 'day', 'Asia/Kolkata', 'priority'],
  ] as const)('%s by %s in %s, grouped by %s: records of each bucket and group', async (metric, granularity, zone, groupBy) => {
    const w: Window = { ...WINDOWS[0]!, zone }
    const body = await reportJson(
      world,
      'admin',
      `/api/v1/reports/timeseries?metric=${metric}&granularity=${granularity}&group_by=${groupBy}&${windowQuery(w)}`,
    )
    let seen = 0
    for (const series of body.series as Json[])
      for (const point of series.points as Json[]) {
        const figure = typeof point.value === 'number' ? point.value : (point.value as Json).count
        const { total_count } = await allRecords(
          world,
          'admin',
          `metric=${metric}&bucket=${encodeURIComponent(point.start)}&granularity=${granularity}&group_by=${groupBy}&group=${encodeURIComponent(series.group)}&${windowQuery(w)}`,
        )
        expect({ group: series.group, start: point.start, total_count }).toEqual({
          group: series.group,
          start: point.start,
          total_count: figure,
        })
        seen += figure
      }
    expect(seen).toBeGreaterThan(0)
  })
})

describe("the agents' rows add up to the figures grouped by agent", () => {
  test.each(WINDOWS.map((w) => [label(w), w] as const))('tickets solved, calls answered and handle time, over %s', async (_, w) => {
    const rows = (await reportJson(world, 'admin', `/api/v1/reports/agents?${windowQuery(w)}`)).agents as Json[]
    const solved = await groupTotals(w, 'tickets.solved', 'assignee')
    const answered = await groupTotals(w, 'calls.answered', 'agent')
    const handled = await groupTotals(w, 'calls.handle_time', 'agent')
    for (const row of rows) {
      expect({
        agent: row.agent_id,
        tickets_solved: row.tickets_solved,
        calls_answered: row.calls_answered,
        handle_time: row.handle_time,
      }).toEqual({
        agent: row.agent_id,
        tickets_solved: solved[row.agent_id] ?? 0,
        calls_answered: answered[row.agent_id] ?? 0,
        handle_time: handled[row.agent_id] ?? { count: 0, mean: null, p50: null, p90: null },
      })
    }
    // Every agent with a figure has a row; with the unassigned ones, they make the organization's figure.
    for (const id of [...Object.keys(solved), ...Object.keys(answered)].filter((g) => g !== 'none'))
      expect(rows.map((r) => r.agent_id)).toContain(id)
    const figures = await summaryOf(w, ['tickets.solved', 'calls.answered'])
    const sum = (key: string) => rows.reduce((all, r) => all + (r[key] as number), 0)
    expect({ tickets: sum('tickets_solved') + (solved.none ?? 0), calls: sum('calls_answered') + (answered.none ?? 0) }).toEqual({
      tickets: figures['tickets.solved'],
      calls: figures['calls.answered'],
    })
  })
})

// ---------------------------------------------------------------------------------------------------
// CSV: the JSON's numbers, cell for cell

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v))
const durationCells = (v: Json | null) => (v ? [v.count, v.mean, v.p50, v.p90] : [0, null, null, null]).map(cell)
const csvOf = async (path: string) => {
  const reply = await world.call('admin', 'GET', path)
  expect({ path, status: reply.status, type: reply.headers.get('content-type') }).toEqual({
    path,
    status: 200,
    type: 'text/csv; charset=utf-8',
  })
  return parse(reply.text) as string[][]
}

describe('the CSV of each report holds exactly the numbers of its JSON', () => {
  const w = WINDOWS[0]!
  const metrics = [
    'tickets.created',
    'tickets.first_response_time',
    'calls.abandonment_rate',
    'calls.handle_time',
    'surveys.nps',
    'crm.contacts_created',
  ]

  test('summary', async () => {
    const path = `/api/v1/reports/summary?metrics=${metrics.join(',')}&${windowQuery(w)}`
    const body = await reportJson(world, 'admin', path)
    const csv = await csvOf(`${path}&format=csv`)
    // A number in `value`, a duration in its four columns.
    const values = (duration: boolean, v: unknown) => (duration ? ['', ...durationCells(v as Json)] : [cell(v), '', '', '', ''])
    expect(csv).toEqual([
      [
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
      ],
      ...(body.metrics as Json[]).map((m) => {
        const duration = m.unit === 'seconds'
        return [
          m.metric,
          m.unit,
          ...values(duration, m.value),
          ...values(duration, m.previous),
          cell(m.change?.difference),
          cell(m.change?.ratio),
        ]
      }),
    ])
    // Accept: text/csv asks the same.
    const accepted = await world.call('admin', 'GET', path, undefined, { accept: 'text/csv' })
    expect(parse(accepted.text)).toEqual(csv)
  })

  test('timeseries, grouped, a count and a duration', async () => {
    for (const metric of ['tickets.created', 'tickets.resolution_time']) {
      const path = `/api/v1/reports/timeseries?metric=${metric}&group_by=priority&granularity=hour&${windowQuery(w)}`
      const body = await reportJson(world, 'admin', path)
      const duration = metric.endsWith('_time')
      expect(await csvOf(`${path}&format=csv`)).toEqual([
        ['start', 'label', 'group', ...(duration ? ['count', 'mean', 'p50', 'p90'] : ['value'])],
        ...(body.series as Json[]).flatMap((s) =>
          (s.points as Json[]).map((p) => [p.start, p.label, cell(s.group), ...(duration ? durationCells(p.value) : [cell(p.value)])]),
        ),
      ])
    }
  })

  test('agents', async () => {
    const path = `/api/v1/reports/agents?${windowQuery(w)}`
    const rows = (await reportJson(world, 'admin', path)).agents as Json[]
    expect(rows.length).toBeGreaterThan(0)
    const statuses = [...new Set(rows.flatMap((r) => Object.keys(r.status_seconds)))].sort()
    expect(await csvOf(`${path}&format=csv`)).toEqual([
      [
        'agent_id',
        'tickets_solved',
        'calls_answered',
        'handle_time_count',
        'handle_time_mean',
        'handle_time_p50',
        'handle_time_p90',
        'sessions_closed',
        'logged_in_seconds',
        'occupancy',
        ...statuses.map((s) => `status_${s}_seconds`),
      ],
      ...rows.map((r) => [
        r.agent_id,
        cell(r.tickets_solved),
        cell(r.calls_answered),
        ...durationCells(r.handle_time),
        cell(r.sessions_closed),
        cell(r.logged_in_seconds),
        cell(r.occupancy),
        ...statuses.map((s) => cell(r.status_seconds[s] ?? 0)),
      ]),
    ])
  })

  test('records, a count and a duration', async () => {
    for (const metric of ['tickets.created', 'calls.speed_of_answer']) {
      const path = `/api/v1/reports/records?metric=${metric}&${windowQuery(w)}`
      const body = await reportJson(world, 'admin', path)
      expect((body.records as Json[]).length).toBeGreaterThan(0)
      expect(await csvOf(`${path}&format=csv`)).toEqual([
        ['record_type', 'record_id', 'at', 'started_at', 'value', 'business_value', 'dimensions'],
        ...(body.records as Json[]).map((r) => [
          r.record_type,
          r.record_id,
          r.at,
          cell(r.started_at),
          cell(r.value),
          cell(r.business_value),
          JSON.stringify(r.dimensions),
        ]),
      ])
    }
  })
})

// ---------------------------------------------------------------------------------------------------
// Records that leave the lists

describe('records that later leave their list', () => {
  test('a contact merged into another: crm.contacts_created ("that still exist") equals the contacts list', async () => {
    const merged = await World.create(app, 'merged', { pats: false })
    const w: Window = { from: app.clock.now() - HOUR, to: app.clock.now() + HOUR, zone: 'UTC', threshold: 20 }
    const keep = await merged.ok('admin', 'POST', '/api/v1/contacts', { name: 'Grace', email: 'grace@example.com' }, 201)
    const other = await merged.ok('admin', 'POST', '/api/v1/contacts', { name: 'Grace H.', email: 'grace.h@example.com' }, 201)
    await merged.ok('admin', 'POST', `/api/v1/contacts/${keep.id}/merge`, { other_id: other.id })
    const list = await merged.ok(
      'admin',
      'GET',
      `/api/v1/contacts?${new URLSearchParams({ ...between(w, 'created'), include_total: 'true' })}`,
    )
    expect(list.total_count).toBe(1)
    const body = await reportJson(merged, 'admin', `/api/v1/reports/summary?metrics=crm.contacts_created&compare=none&${windowQuery(w)}`)
    expect(body.metrics[0].value).toBe(list.total_count)
    const records = await reportJson(merged, 'admin', `/api/v1/reports/records?metric=crm.contacts_created&${windowQuery(w)}`)
    expect((records.records as Json[]).map((r) => r.record_id)).toEqual([keep.id])
  })

  test('a deleted ticket: tickets.created equals the tickets list (a figure whose records can no longer be opened)', async () => {
    const deleted = await World.create(app, 'deleted', { pats: false })
    const w: Window = { from: app.clock.now() - HOUR, to: app.clock.now() + HOUR, zone: 'UTC', threshold: 20 }
    const kept = await deleted.ok('admin', 'POST', '/api/v1/tickets', { subject: 'Kept' }, 201)
    const gone = await deleted.ok('admin', 'POST', '/api/v1/tickets', { subject: 'Gone' }, 201)
    await deleted.ok('admin', 'DELETE', `/api/v1/tickets/${gone.id}`, undefined, 204)
    const list = await deleted.ok(
      'admin',
      'GET',
      `/api/v1/tickets?${new URLSearchParams({ ...between(w, 'created'), include_total: 'true' })}`,
    )
    expect(list.total_count).toBe(1)
    for (const folded of [false, true]) {
      if (folded) await fold()
      const body = await reportJson(deleted, 'admin', `/api/v1/reports/summary?metrics=tickets.created&compare=none&${windowQuery(w)}`)
      const records = await reportJson(deleted, 'admin', `/api/v1/reports/records?metric=tickets.created&${windowQuery(w)}`)
      expect({ folded, value: body.metrics[0].value, records: (records.records as Json[]).map((r) => r.record_id) }).toEqual({
        folded,
        value: list.total_count,
        records: [kept.id],
      })
    }
  })
})
