// Property tests of the reports: random sequences of changes made through the API (tickets created,
// commented by a person or with a personal access token, solved, reopened, re-prioritized, re-tagged,
// reassigned; calls created, answered, ended; the fake clock moved by seconds to hours), the fold run at
// random points (so reports read a partly folded log), then random windows (from and to at any
// millisecond), zones, granularities and groupings. Each report must equal a brute-force computation
// from the raw records (helpers-random.ts), a count's points must add up to its summary, and every
// answer must be the same once the fold has read everything, and after the log is folded again (rebuild).
// FC_SEED=<n> replays a run; FC_SHRINK=1 shrinks a failure (slow); REPORTS_PROPERTY_RUNS sets the runs.
import type { Queries, SqlValue } from '../../../src/db/database.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { foldBatch } from '../../../src/modules/reports/fold-task.ts'
import { foldAll, rebuildReports } from '../../../src/modules/reports/index.ts'
import { makeTestApp } from '../../helpers/app.ts'
import { TEST_ENGINE } from '../../helpers/engine.ts'
import {
  BRUTE_METRICS,
  type BruteMetric,
  bruteFacts,
  COUNT_METRICS,
  DAY,
  DIMENSIONS,
  expectedRecords,
  expectedSeries,
  expectedSummary,
  GRANULARITIES,
  type Granularity,
  HOUR,
  iso,
  type Json,
  MIN,
  allRecords,
  reportJson,
  runSteps,
  type SeriesQuery,
  seriesQuery,
  stepArb,
  type Window,
  World,
  windowQuery,
  ZONES,
} from './helpers-random.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const fold = () => foldAll(app.context)

const RUNS = Number(process.env.REPORTS_PROPERTY_RUNS ?? (TEST_ENGINE === 'postgres' ? 30 : 40))
const options = (runs: number): fc.Parameters<unknown> => ({
  numRuns: runs,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
  endOnFailure: !process.env.FC_SHRINK,
  verbose: 1,
})

/** Instants near a change of offset (New York's and Lord Howe's, both ways), a month's and a year's end. */
const STARTS = [
  Date.UTC(2026, 2, 8, 7, 0), // America/New_York springs forward
  Date.UTC(2026, 10, 1, 6, 0), // America/New_York falls back
  Date.UTC(2026, 3, 4, 15, 0), // Australia/Lord_Howe goes back 30 minutes
  Date.UTC(2026, 9, 3, 15, 30), // Australia/Lord_Howe goes forward 30 minutes
  Date.UTC(2026, 0, 31, 20, 0),
  Date.UTC(2026, 11, 31, 20, 0),
  Date.UTC(2027, 0, 3, 23, 0), // a Sunday night: ISO weeks
]

/** The longest window asked per granularity (the brute force walks quarter hours). */
const WIDEST: Record<Granularity, number> = { hour: 3 * DAY, day: 40 * DAY, week: 120 * DAY, month: 400 * DAY }

const queryArb = fc.record({
  fromAt: fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 1_000_000),
  widthAt: fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 1_000_000),
  zone: fc.constantFrom(...ZONES),
  granularity: fc.constantFrom(...GRANULARITIES),
  metric: fc.constantFrom(...BRUTE_METRICS),
  groupAt: fc.nat(),
  grouped: fc.boolean(),
  top: fc.integer({ min: 1, max: 5 }),
  threshold: fc.constantFrom(1, 5, 20, 30, 60, 120, 999),
  recordsMetric: fc.constantFrom(...BRUTE_METRICS),
  compare: fc.constantFrom('previous_period' as const, 'previous_year' as const, 'none' as const),
})
type QueryInput = typeof queryArb extends fc.Arbitrary<infer T> ? T : never

const scenarioArb = fc.record({
  start: fc.constantFrom(...STARTS),
  lead: fc.integer({ min: 0, max: 12 * HOUR }),
  steps: fc.array(stepArb, { minLength: 20, maxLength: 60, size: 'max' }),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 3 }),
  // The organization's zone: the fold keeps its day totals in it, whatever zone a report asks for.
  orgZone: fc.constantFrom(...ZONES),
  // Where a rebuild from a date begins, as a share of the steps' stretch (at any millisecond).
  rebuildAt: fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 1_000_000),
})

/** A query's window: anywhere from 3 hours before the steps to 3 hours after, at any millisecond. */
function windowOf(q: QueryInput, span: { start: number; end: number }) {
  const lo = span.start - 3 * HOUR
  const hi = span.end + 3 * HOUR
  const from = lo + Math.floor(q.fromAt * (hi - lo))
  const width = 1 + Math.floor(q.widthAt * q.widthAt * WIDEST[q.granularity])
  return { from, to: from + width }
}

const METRICS = BRUTE_METRICS.join(',')
let runs = 0

/**
 * Whether the reports read their integer parameters (threshold, top, page_size) from a query string: while
 * they do not (see the test below), the random runs keep to the defaults (threshold 20, top 10) so that
 * everything else is still checked.
 */
async function integersRead(): Promise<boolean> {
  const world = await World.create(app, `probe${++runs}`, { pats: false })
  return (await world.call('admin', 'GET', '/api/v1/reports/summary?metrics=tickets.created&threshold=20')).status === 200
}

/** The three reports of one query (summary, series, records) as answered now. */
type Compare = 'previous_period' | 'previous_year' | 'none'

async function ask(world: World, w: Window, series: SeriesQuery, recordsMetric: BruteMetric, compare: Compare) {
  const summary = await reportJson(world, 'admin', `/api/v1/reports/summary?metrics=${METRICS}&compare=${compare}&${windowQuery(w)}`)
  const timeseries = await reportJson(world, 'admin', `/api/v1/reports/timeseries?${seriesQuery(series)}`)
  const records = await allRecords(world, 'admin', `metric=${recordsMetric}&${windowQuery(w)}`)
  return { summary, timeseries, records }
}

function check(
  facts: Awaited<ReturnType<typeof bruteFacts>>,
  answers: Awaited<ReturnType<typeof ask>>,
  w: Window,
  series: SeriesQuery,
  recordsMetric: BruteMetric,
  compare: Compare,
) {
  const { summary, timeseries, records } = answers
  const context = { window: { from: iso(w.from), to: iso(w.to), zone: w.zone, threshold: w.threshold, compare } }
  // Summary: each metric and the window it is compared with (the one before, or 52 weeks before), and the change.
  const shift = compare === 'previous_year' ? 364 * DAY : w.to - w.from
  const expected = expectedSummary(facts, BRUTE_METRICS, w, shift).map((m) =>
    compare === 'none' ? { metric: m.metric, value: m.value, previous: undefined, change: null } : m,
  )
  expect({
    ...context,
    metrics: summary.metrics.map((m: Json) => ({ metric: m.metric, value: m.value, previous: m.previous, change: m.change })),
  }).toEqual({ ...context, metrics: expected })
  expect([summary.previous_from, summary.previous_to]).toEqual(compare === 'none' ? [null, null] : [iso(w.from - shift), iso(w.to - shift)])
  // Series: every group, its total and every local bucket, start, label and value.
  const seriesContext = {
    ...context,
    series: { metric: series.metric, granularity: series.granularity, group_by: series.groupBy, top: series.top },
  }
  expect({ ...seriesContext, got: timeseries.series }).toEqual({ ...seriesContext, got: expectedSeries(facts, series) })
  // A count's points add up to its summary (a grouping by a single-valued dimension too, `other` included).
  const summaryValue = summary.metrics.find((m: Json) => m.metric === series.metric)!.value
  if (COUNT_METRICS.has(series.metric) && series.groupBy !== 'tag') {
    const sum = (timeseries.series as Json[]).reduce((all, s) => all + (s.points as Json[]).reduce((a, p) => a + (p.value as number), 0), 0)
    expect({ ...seriesContext, sum }).toEqual({ ...seriesContext, sum: summaryValue })
  }
  if (series.groupBy === null) expect(timeseries.series[0].total).toEqual(summaryValue)
  // Records: the facts of the metric's first stream, oldest first; a count's total_count is its figure.
  const wanted = expectedRecords(facts, recordsMetric, w)
  const got = (records.records as Json[]).map((r) => ({ record_id: r.record_id, at: r.at, value: r.value, dimensions: r.dimensions }))
  expect({ ...context, metric: recordsMetric, total: records.total_count, got }).toEqual({
    ...context,
    metric: recordsMetric,
    total: wanted.length,
    got: wanted,
  })
  if (COUNT_METRICS.has(recordsMetric))
    expect(records.total_count).toBe(summary.metrics.find((m: Json) => m.metric === recordsMetric)!.value)
}

describe('reports equal a brute force over the raw records', () => {
  test(
    'random changes, random folds, random windows, zones, granularities and groupings',
    async () => {
      const integers = await integersRead()
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          // Each run: its own organization, its own stretch of (fake) time.
          app.clock.advance(scenario.start - scenario.lead - app.clock.now())
          const world = await World.create(app, `prop${++runs}`)
          const zoned = await world.call('admin', 'PUT', '/api/v1/reports/settings', { time_zone: scenario.orgZone, business_hours: null })
          expect({ status: zoned.status, body: zoned.body }).toMatchObject({ status: 200 })
          const made = await runSteps(world, scenario.steps, fold)
          const facts = await bruteFacts(app, world.orgId)
          const asked: {
            w: Window
            series: SeriesQuery
            recordsMetric: BruteMetric
            compare: Compare
            answers: Awaited<ReturnType<typeof ask>>
          }[] = []
          // The random queries, and one over the whole stretch of the steps.
          const queries = [...scenario.queries.map((q) => ({ q, whole: false })), { q: scenario.queries[0]!, whole: true }]
          for (const [i, { q, whole }] of queries.entries()) {
            const span = whole ? { from: made.start - HOUR - 1, to: made.end + HOUR + 1 } : windowOf(q, made)
            const w: Window = { ...span, zone: q.zone, threshold: integers ? q.threshold : 20 }
            const dims = DIMENSIONS[q.metric]
            const groupBy = q.grouped ? dims[q.groupAt % dims.length]! : null
            // A multi-valued dimension (tags) keeps every group: `other` of tags is tested on its own below.
            const series: SeriesQuery = {
              ...w,
              metric: q.metric,
              granularity: whole ? 'hour' : q.granularity,
              groupBy,
              top: groupBy === 'tag' || !integers ? 10 : q.top,
            }
            const answers = await ask(world, w, series, q.recordsMetric, q.compare)
            check(facts, answers, w, series, q.recordsMetric, q.compare)
            asked.push({ w, series, recordsMetric: q.recordsMetric, compare: q.compare, answers })
            // Sometimes fold between two queries: the next one reads another partly folded state.
            if (i % 2 === 1) await fold()
          }
          // Once the fold has read everything, every answer is the same.
          await fold()
          for (const { w, series, recordsMetric, compare, answers } of asked) {
            const again = await ask(world, w, series, recordsMetric, compare)
            expect(again).toEqual(answers)
          }
          // And once more after the log has been folded again from the start (switchboard reports rebuild).
          await rebuildReports(app.context, world.orgId)
          for (const { w, series, recordsMetric, compare, answers } of asked)
            expect(await ask(world, w, series, recordsMetric, compare)).toEqual(answers)
          // And after a rebuild from an instant inside the stretch: totals before it are kept, the rest made again.
          const rebuildFrom = made.start + Math.floor(scenario.rebuildAt * (made.end - made.start))
          await rebuildReports(app.context, world.orgId, rebuildFrom)
          for (const { w, series, recordsMetric, compare, answers } of asked)
            expect({ rebuildFrom: iso(rebuildFrom), answer: await ask(world, w, series, recordsMetric, compare) }).toEqual({
              rebuildFrom: iso(rebuildFrom),
              answer: answers,
            })
        }),
        options(RUNS),
      )
    },
    { timeout: 240_000 },
  )
})

describe('single cases the random runs rarely reach', () => {
  test('threshold, top and page_size are read from the query string', async () => {
    const world = await World.create(app, 'integers', { pats: false })
    for (const path of [
      '/api/v1/reports/summary?metrics=calls.service_level&threshold=30',
      '/api/v1/reports/timeseries?metric=tickets.created&group_by=channel&top=3',
      '/api/v1/reports/agents?page_size=5',
      '/api/v1/reports/records?metric=tickets.created&page_size=5',
    ]) {
      const reply = await world.call('admin', 'GET', path)
      expect({ path, status: reply.status, body: reply.body }).toMatchObject({ path, status: 200 })
    }
  })

  test('service level at a threshold of 1000 s or more: a call answered after 1005 s is not within 1000 s', async () => {
    app.clock.advance(Date.UTC(2026, 5, 1, 12, 0) - app.clock.now())
    const world = await World.create(app, 'threshold', { pats: false })
    const call = await world.ok('admin', 'POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199' }, 201)
    app.clock.advance(1005_000)
    await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/answer`, { agent_id: world.userId('agent') })
    app.clock.advance(60_000)
    await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/end`, {})
    const facts = await bruteFacts(app, world.orgId)
    for (const threshold of [20, 1000, 1004, 1005, 3600]) {
      const w: Window = { from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 2), zone: 'UTC', threshold }
      const body = await reportJson(world, 'admin', `/api/v1/reports/summary?metrics=calls.service_level&compare=none&${windowQuery(w)}`)
      expect({ threshold, value: body.metrics[0].value }).toEqual({
        threshold,
        value: expectedSummary(facts, ['calls.service_level'], w)[0]!.value,
      })
    }
  })

  test('`other` of a multi-valued dimension (tags) counts each ticket once', async () => {
    app.clock.advance(Date.UTC(2026, 6, 1, 12, 0) - app.clock.now())
    const world = await World.create(app, 'othertags', { pats: false })
    // x on three tickets (the top), y and z together on one: `other` is that one ticket.
    for (const tags of [['x'], ['x'], ['x', 'y', 'z']]) await world.ok('admin', 'POST', '/api/v1/tickets', { subject: 'T', tags }, 201)
    const w: Window = { from: Date.UTC(2026, 6, 1), to: Date.UTC(2026, 6, 2), zone: 'UTC', threshold: 20 }
    const body = await reportJson(
      world,
      'admin',
      `/api/v1/reports/timeseries?metric=tickets.created&group_by=tag&top=1&granularity=day&${windowQuery(w)}`,
    )
    expect(body.series.map((s: Json) => [s.group, s.total])).toEqual([
      ['x', 3],
      ['other', 1],
    ])
  })

  test('more than 20,000 events the fold has not read: the report counts them all, or says it cannot yet (503), never a silent part', async () => {
    app.clock.advance(Date.UTC(2026, 8, 1, 12, 0) - app.clock.now())
    const world = await World.create(app, 'backlog', { pats: false })
    // As a bulk import leaves the log while the fold is behind: 20,050 ticket.created events, one a second.
    const N = 20_050
    const first = app.clock.now() - N * 1000
    const last = await app.context.db.raw.get<{ seq: number }>(
      'SELECT coalesce(max(stream_seq), 0) AS seq FROM events WHERE organization_id = ?',
      [world.orgId],
    )
    const base = Number(last!.seq)
    await app.context.db.write('test.backlog', async (tx) => {
      for (let i = 0; i < N; i += 500) {
        const rows = Array.from({ length: Math.min(500, N - i) }, (_, j) => {
          const at = first + (i + j) * 1000
          const id = `tkt_backlog_${String(i + j).padStart(6, '0')}`
          const ticket = { id, status: 'new', priority: 'normal', channel: 'api', tags: [], assignee_id: null, created_at: iso(at) }
          const body = JSON.stringify({
            id: `evt_${id}`,
            type: 'ticket.created',
            created_at: iso(at),
            organization_id: world.orgId,
            data: { ticket },
          })
          return [`evt_${world.orgId}_${i + j}`, world.orgId, 'ticket.created', body, at, 'person', base + i + j + 1]
        })
        await tx.raw.run(
          `INSERT INTO events (id, organization_id, type, body, created_at, actor_kind, stream_seq) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          rows.flat() as (string | number)[],
        )
      }
    })
    const w: Window = { from: first - HOUR, to: app.clock.now() + HOUR, zone: 'UTC', threshold: 20 }
    const path = `/api/v1/reports/summary?metrics=tickets.created&compare=none&${windowQuery(w)}`
    const reply = await world.call('admin', 'GET', path)
    if (reply.status === 503) {
      // Refused until the fold has caught up, saying when to come back.
      expect({ code: reply.body.code, retryAfter: Number(reply.headers.get('retry-after')) > 0 }).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        retryAfter: true,
      })
    } else {
      expect(reply.status).toBe(200)
      const counted = reply.body.metrics[0].value as number
      // Counted: every one; or the first `counted`, with as_of before the next one was made.
      if (counted !== N) expect({ counted, as_of: reply.body.as_of }).toEqual({ counted, as_of: iso(first + (counted - 1) * 1000) })
    }
    await foldAll(app.context, 1_000)
    expect((await reportJson(world, 'admin', path)).metrics[0].value).toBe(N)
  }, 120_000)

  test('a fold that commits while a report reads its buckets leaves every event counted once', async () => {
    app.clock.advance(Date.UTC(2026, 7, 1, 12, 0) - app.clock.now())
    const world = await World.create(app, 'race', { pats: false })
    for (let i = 0; i < 3; i++) {
      await world.ok('admin', 'POST', '/api/v1/tickets', { subject: `T${i}` }, 201)
      app.clock.advance(5 * MIN)
    }
    const w: Window = { from: Date.UTC(2026, 6, 31), to: Date.UTC(2026, 7, 2), zone: 'UTC', threshold: 20 }
    const path = `/api/v1/reports/summary?metrics=tickets.created&compare=none&${windowQuery(w)}`
    // The cron task's fold, run (as it may be in production) right after the report has read the buckets:
    // the report reads one snapshot, so what the fold commits meanwhile is neither lost nor counted twice.
    const admin = app.context.db.admin as { snapshot: <T>(block: (view: Queries) => Promise<T>) => Promise<T> }
    const snapshot = admin.snapshot
    let armed = true
    admin.snapshot = <T>(block: (view: Queries) => Promise<T>) =>
      snapshot.call(admin, (view: Queries) => {
        const all = view.raw.all.bind(view.raw)
        const raw = {
          ...view.raw,
          get: view.raw.get.bind(view.raw),
          run: view.raw.run.bind(view.raw),
          all: async <Row>(sql: string, params?: readonly SqlValue[]) => {
            const rows = await all<Row>(sql, params)
            if (armed && sql.includes('FROM report_totals')) {
              armed = false
              expect(await foldBatch(app.context, world.orgId)).toBeGreaterThan(0)
            }
            return rows
          },
        }
        return block({ ...view, raw })
      }) as Promise<T>
    try {
      const body = await reportJson(world, 'admin', path)
      expect(armed).toBe(false)
      expect(body.metrics[0].value).toBe(3)
    } finally {
      admin.snapshot = snapshot
    }
    expect((await reportJson(world, 'admin', path)).metrics[0].value).toBe(3)
  })
})
