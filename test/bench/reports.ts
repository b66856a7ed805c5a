// Reports at scale, on SQLite and on PostgreSQL (one instance, loopback; skipped when it is not installed):
//   1. REPORTS_BENCH_TICKETS tickets (default 1,000,000) with their comments, tags and status changes,
//      half as many calls, a fifth as many engagement sessions, a tenth as many survey responses and 50
//      agents' shifts over two years in one organization, generated as rows and event-log rows
//      (reports-data.ts), then the whole log folded in-process (foldBatch in batches of 1,000, as `reports rebuild` does):
//      events/s. A fold that does not finish in REPORTS_BENCH_FOLD_LIMIT_S (900) stops there, says how
//      far it got, and the engine's queries are skipped (they would read a half-folded log).
//   2. The compiled binary on that data, rate limits off: p50 of sequential requests (after 2 warm-ups)
//      of a summary of 8 metrics over 90 days with the previous period (target < 50 ms), a year of daily
//      tickets.created grouped by assignee (< 100 ms), and live (< 20 ms).
//   3. The same figures computed by plain SQL over the source tables (counts by time range, percentiles
//      by sorting, days in UTC) from the bench process: report time / plain time.
//   4. Ticket creation (POST /api/v1/tickets, wrk, DURATION_S, alternating rounds, medians) with reports
//      (this tree) against REPORTS_BENCH_BASELINE (594abd2, before reports existed; built from a temporary
//      `git worktree`), fresh deployments side by side; after each of this tree's rounds, how long its
//      fold took to catch up with what the load wrote. Target new/old >= 0.95.
// Progress goes to stderr; the figures to stdout.
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { loadConfig } from '../../src/config.ts'
import type { Database as AppDatabase, RawSql, Tx } from '../../src/db/database.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { foldBatch } from '../../src/modules/reports/fold-task.ts'
import { openCommandContext } from '../../src/runtime.ts'
import { tempDir } from '../helpers/app.ts'
import { postgresAvailable, type RunningService, startPostgres } from '../helpers/services.ts'
import { ADMIN, dataDirOf, type Instance, signIn, startInstance } from './cluster-setup.ts'
import { compare, DURATION_S, GENERATOR, type LoadResult, ROUNDS } from './load.ts'
import { DAY, generate, type RowSink, SPAN_DAYS, scaleOf, type World } from './reports-data.ts'

export const REPORTS_TICKETS = Number(process.env.REPORTS_BENCH_TICKETS ?? 1_000_000)
const FOLD_LIMIT_S = Number(process.env.REPORTS_BENCH_FOLD_LIMIT_S ?? 900)
/** Events per fold transaction: `reports rebuild`'s (REBUILD_BATCH in src/modules/reports/fold-task.ts). */
const FOLD_BATCH = Number(process.env.REPORTS_BENCH_FOLD_BATCH ?? 1000)
/** Timed requests per figure (fewer when they take long: at least 5, then until 30 s have passed). */
const SAMPLES = Number(process.env.REPORTS_BENCH_SAMPLES ?? 25)
/** REPORTS_BENCH_KEEP=1 keeps the SQLite database (its path is logged) for profiling a report afterwards. */
const KEEP = process.env.REPORTS_BENCH_KEEP === '1'
/** REPORTS_BENCH_PARTS: which parts run (default all): `sqlite`, `postgres` (data, fold, queries), `create`. */
const PARTS = new Set((process.env.REPORTS_BENCH_PARTS ?? 'sqlite,postgres,create').split(','))
export const REPORTS_BASELINE = process.env.REPORTS_BENCH_BASELINE ?? '594abd2'
const ROOT = join(import.meta.dir, '../..')

const SUMMARY_METRICS = [
  'tickets.created',
  'tickets.solved',
  'tickets.first_response_time',
  'tickets.resolution_time',
  'calls.answered',
  'calls.abandonment_rate',
  'calls.speed_of_answer',
  'surveys.csat',
]
const TARGETS = { summary: 50, timeseries: 100, live: 20 } as const
const TERMINAL_CALLS = "('completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected')"

/** The commit checked out, read from .git (no git command); the binary is built from the working tree as it is. */
function headCommit(): string {
  try {
    const head = readFileSync(join(ROOT, '.git/HEAD'), 'utf8').trim()
    if (!head.startsWith('ref: ')) return head.slice(0, 7)
    const ref = head.slice(5)
    const loose = join(ROOT, '.git', ref)
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim().slice(0, 7)
    const packed = readFileSync(join(ROOT, '.git/packed-refs'), 'utf8')
    return new RegExp(`^([0-9a-f]{40}) ${ref}$`, 'm').exec(packed)?.[1]?.slice(0, 7) ?? ref
  } catch {
    return 'unknown'
  }
}

export const REPORTS_HEADER = `Reports (working tree at ${headCommit()}): ${REPORTS_TICKETS.toLocaleString('en')} tickets, ${scaleOf(REPORTS_TICKETS).calls.toLocaleString('en')} calls, ${scaleOf(REPORTS_TICKETS).sessions.toLocaleString('en')} sessions, ${scaleOf(REPORTS_TICKETS).surveys.toLocaleString('en')} survey responses, 50 agents over ${SPAN_DAYS} days in one organization; compiled binary, rate limits off; p50 of sequential requests`

const log = (line: string) => process.stderr.write(`  [reports bench] ${line}\n`)
const seconds = (ms: number) => ms / 1000

// ---------------------------------------------------------------------------------------------- sinks

/** SQLite: multi-row INSERTs, one transaction per ~50,000 rows, synchronous off while seeding. */
class SqliteSink implements RowSink {
  private inTx = 0
  private open = false
  private readonly statements = new Map<string, ReturnType<Database['prepare']>>()
  constructor(private readonly db: Database) {
    db.run('PRAGMA synchronous = OFF')
  }
  async insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
    if (!this.open) {
      this.db.run('BEGIN')
      this.open = true
    }
    const per = Math.min(500, Math.floor(16_000 / columns.length))
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per)
      const key = `${table}:${chunk.length}`
      let statement = this.statements.get(key)
      if (!statement) {
        const tuple = `(${columns.map(() => '?').join(', ')})`
        statement = this.db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(chunk.length).fill(tuple).join(', ')}`)
        this.statements.set(key, statement)
      }
      statement.run(...(chunk.flat() as never[]))
    }
    this.inTx += rows.length
    if (this.inTx >= 50_000) {
      this.db.run('COMMIT')
      this.open = false
      this.inTx = 0
    }
  }
  finish(): void {
    if (this.open) this.db.run('COMMIT')
    this.open = false
    this.db.run('PRAGMA synchronous = NORMAL')
  }
}

/** PostgreSQL: multi-row INSERTs of up to ~60,000 parameters, two of one table in flight (a table's rows land before the next table's, which may refer to them). */
class PostgresSink implements RowSink {
  private readonly inFlight: Promise<unknown>[] = []
  private table = ''
  constructor(private readonly sql: InstanceType<typeof Bun.SQL>) {}
  async insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
    if (table !== this.table) await this.finish()
    this.table = table
    const per = Math.min(2000, Math.floor(60_000 / columns.length))
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per)
      let p = 0
      const tuples = chunk.map(() => `(${columns.map(() => `$${++p}`).join(', ')})`)
      const text = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`
      this.inFlight.push(this.sql.unsafe(text, chunk.flat() as never[]))
      if (this.inFlight.length >= 2) await this.inFlight.shift()
    }
  }
  async finish(): Promise<void> {
    await Promise.all(this.inFlight.splice(0))
  }
}

// ------------------------------------------------------------------------------- plain SQL access

/** A read connection of the bench process: `?` placeholders on both engines. */
interface Plain {
  all<T = Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>
  close(): Promise<void>
}

function plainSqlite(path: string): Plain {
  const db = new Database(path, { readonly: true })
  return {
    async all<T>(text: string, params: unknown[]) {
      return db.query(text).all(...(params as never[])) as T[]
    },
    async close() {
      db.close()
    },
  }
}

function plainPostgres(url: string): Plain {
  const sql = new Bun.SQL(url, { max: 1 })
  return {
    async all<T>(text: string, params: unknown[]) {
      let n = 0
      return (await sql.unsafe(
        text.replace(/\?/g, () => `$${++n}`),
        params as never[],
      )) as T[]
    },
    async close() {
      await sql.close()
    },
  }
}

// ------------------------------------------------------------------------------------ measurement

/** The median of `run`'s duration over sequential runs, after two warm-ups. */
async function p50Of(run: () => Promise<void>): Promise<{ p50: number; n: number }> {
  await run()
  await run()
  const times: number[] = []
  const deadline = performance.now() + 30_000
  while (times.length < SAMPLES && (times.length < 5 || performance.now() < deadline)) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor((times.length - 1) / 2)]!, n: times.length }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

function percentiles(sorted: number[]) {
  if (sorted.length === 0) return { count: 0, mean: null, p50: null, p90: null }
  const rank = (p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1]!
  return { count: sorted.length, mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, p50: rank(50), p90: rank(90) }
}

/** The summary's eight figures by plain SQL over the source tables, for [from, to). */
async function plainSummary(db: Plain, org: string, from: number, to: number) {
  const [created] = await db.all<{ n: number }>(
    'SELECT count(*) AS n FROM tickets WHERE organization_id = ? AND created_at >= ? AND created_at < ?',
    [org, from, to],
  )
  // The table keeps a ticket's last solve only (a reopened and solved again ticket counts once here).
  const resolution = await db.all<{ v: number }>(
    "SELECT (solved_at - created_at) / 1000 AS v FROM tickets WHERE organization_id = ? AND status IN ('solved', 'closed') AND solved_at >= ? AND solved_at < ? ORDER BY v",
    [org, from, to],
  )
  // First public comment of the tickets created in the window (the table cannot tell a person from an automation).
  const firstResponse = await db.all<{ v: number | null }>(
    'SELECT v FROM (SELECT ((SELECT min(c.created_at) FROM ticket_comments c WHERE c.ticket_id = t.id AND c.public) - t.created_at) / 1000 AS v FROM tickets t WHERE t.organization_id = ? AND t.created_at >= ? AND t.created_at < ?) x WHERE v IS NOT NULL ORDER BY v',
    [org, from, to],
  )
  const [calls] = await db.all<{ answered: number; abandoned: number }>(
    `SELECT sum(CASE WHEN answered_at IS NOT NULL THEN 1 ELSE 0 END) AS answered, sum(CASE WHEN answered_at IS NULL AND status IN ('canceled', 'no_answer') THEN 1 ELSE 0 END) AS abandoned FROM calls WHERE organization_id = ? AND initialized_at >= ? AND initialized_at < ? AND status IN ${TERMINAL_CALLS}`,
    [org, from, to],
  )
  const waits = await db.all<{ v: number }>(
    `SELECT wait_seconds AS v FROM calls WHERE organization_id = ? AND initialized_at >= ? AND initialized_at < ? AND answered_at IS NOT NULL AND status IN ${TERMINAL_CALLS} ORDER BY v`,
    [org, from, to],
  )
  const [csat] = await db.all<{ good: number; n: number }>(
    "SELECT sum(CASE WHEN score >= 4 THEN 1 ELSE 0 END) AS good, count(*) AS n FROM survey_responses WHERE organization_id = ? AND survey_type = 'csat' AND score IS NOT NULL AND responded_at >= ? AND responded_at < ?",
    [org, from, to],
  )
  const answered = Number(calls!.answered ?? 0)
  const abandoned = Number(calls!.abandoned ?? 0)
  return {
    'tickets.created': Number(created!.n),
    'tickets.solved': resolution.length,
    'tickets.first_response_time': percentiles(firstResponse.map((r) => Number(r.v))),
    'tickets.resolution_time': percentiles(resolution.map((r) => Number(r.v))),
    'calls.answered': answered,
    'calls.abandonment_rate': answered + abandoned === 0 ? null : abandoned / (answered + abandoned),
    'calls.speed_of_answer': percentiles(waits.map((r) => Number(r.v))),
    'surveys.csat': Number(csat!.n) === 0 ? null : Number(csat!.good) / Number(csat!.n),
  } as Record<string, unknown>
}

/** A year of tickets created per UTC day and assignee, the 10 largest and the rest as `other`. */
async function plainTimeseries(db: Plain, org: string, from: number, to: number) {
  const rows = await db.all<{ d: number; g: string | null; n: number }>(
    'SELECT created_at / 86400000 AS d, assignee_id AS g, count(*) AS n FROM tickets WHERE organization_id = ? AND created_at >= ? AND created_at < ? GROUP BY created_at / 86400000, assignee_id',
    [org, from, to],
  )
  const totals = new Map<string, number>()
  for (const row of rows) totals.set(row.g ?? 'none', (totals.get(row.g ?? 'none') ?? 0) + Number(row.n))
  const top = new Set(
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([g]) => g),
  )
  const series = new Map<string, Map<number, number>>()
  for (const row of rows) {
    const group = top.has(row.g ?? 'none') ? (row.g ?? 'none') : 'other'
    let points = series.get(group)
    if (!points) series.set(group, (points = new Map()))
    points.set(Number(row.d), (points.get(Number(row.d)) ?? 0) + Number(row.n))
  }
  return series
}

/** Live's four reads, as the report makes them. */
async function plainLive(db: Plain, org: string) {
  return Promise.all([
    db.all(
      "SELECT status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END AS unassigned, count(*) AS n FROM tickets WHERE organization_id = ? AND status IN ('new', 'open', 'pending', 'on_hold') GROUP BY status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END",
      [org],
    ),
    db.all("SELECT count(*) AS n, min(initialized_at) AS oldest FROM calls WHERE organization_id = ? AND status IN ('queued', 'ringing')", [
      org,
    ]),
    db.all("SELECT count(*) AS n, min(created_at) AS oldest FROM engagements WHERE organization_id = ? AND status = 'queued'", [org]),
    db.all('SELECT status, count(*) AS n FROM agents WHERE organization_id = ? GROUP BY status', [org]),
  ])
}

// -------------------------------------------------------------------------------------- one engine

export interface QueryFigure {
  what: string
  target: number
  report: number
  plain: number
  samples: number
}

export interface EngineBench {
  engine: 'SQLite' | 'PostgreSQL'
  seedS: number
  rows: number
  /** Events in the log: the generated ones and those the setup's API calls wrote. */
  events: number
  foldS: number
  folded: number
  /** The fold finished within the limit. */
  complete: boolean
  facts: number
  buckets: number
  states: number
  /** Statements the fold ran, by kind (verb and table). */
  profile: { what: string; n: number }[]
  queries: QueryFigure[]
  /** A few figures as the report and the plain SQL give them, to show they count the same. */
  agreement: { what: string; report: unknown; plain: unknown }[]
}

/**
 * `db` whose write transactions count their raw statements by kind (verb and table) in `tally`, with
 * the time from each statement's start to its settling (statements started together overlap: a sum of
 * these is not the fold's time).
 */
function profiled(db: AppDatabase, tally: Map<string, { n: number; ms: number }>): AppDatabase {
  const kindOf = (text: string) =>
    `${text.trimStart().split(/\s/, 1)[0]!.toUpperCase()} ${/(?:FROM|INTO|UPDATE)\s+(\w+)/i.exec(text)?.[1] ?? '?'}`
  const time = async <R>(text: string, run: () => Promise<R>): Promise<R> => {
    const start = performance.now()
    try {
      return await run()
    } finally {
      const entry = tally.get(kindOf(text)) ?? { n: 0, ms: 0 }
      entry.n += 1
      entry.ms += performance.now() - start
      tally.set(kindOf(text), entry)
    }
  }
  const timedTx = (tx: Tx): Tx => {
    const raw: RawSql = {
      all: (text, params) => time(text, () => tx.raw.all(text, params)),
      get: (text, params) => time(text, () => tx.raw.get(text, params)),
      run: (text, params) => time(text, () => tx.raw.run(text, params)),
    }
    return new Proxy(tx, { get: (target, property, receiver) => (property === 'raw' ? raw : Reflect.get(target, property, receiver)) })
  }
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'write') return Reflect.get(target, property, receiver)
      return <T>(name: string, block: (tx: Tx) => Promise<T>) => target.write(name, (tx) => block(timedTx(tx)))
    },
  })
}

interface Seeder {
  sink: RowSink
  /** Writes what the sink holds back. */
  finish(): Promise<void>
  /** One statement outside the sink's transactions. */
  exec(text: string): Promise<void>
  close(): Promise<void>
}

interface EngineSetup {
  engine: EngineBench['engine']
  binary: string
  dir: string
  name: string
  env: Record<string, string>
  /** The bench process's own connection for seeding. */
  seeder: () => Seeder
  plain: () => Plain
}

async function request<T>(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

/** The users (50 agents, their profiles) and contacts the data refers to, made through the API. */
async function makeWorld(instance: Instance): Promise<Omit<World, 'start' | 'end'>> {
  const headers = await signIn(instance.base)
  const me = await request<{ id: string; organization_id: string }>(instance.base, headers, 'GET', '/api/v1/me')
  const names = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis']
  const agents: World['agents'] = []
  for (let k = 0; k < 50; k++) {
    const user = await request<{ id: string; name: string; email: string }>(instance.base, headers, 'POST', '/api/v1/users', {
      email: `agent${k + 1}@bench.example`,
      name: `${names[k % names.length]} Agent ${k + 1}`,
      password: ADMIN.password,
      role: 'agent',
    })
    agents.push({ id: user.id, name: user.name, email: user.email })
  }
  // Listing the agents makes their profiles.
  await request(instance.base, headers, 'GET', '/api/v1/agents?page_size=100')
  const contacts: World['contacts'] = []
  for (let k = 0; k < 1000; k += 20) {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        request<{ id: string; name: string; email: string }>(instance.base, headers, 'POST', '/api/v1/contacts', {
          name: `Customer ${k + j + 1}`,
          email: `customer${k + j + 1}@example.com`,
          contact_type: 'customer',
        }),
      ),
    )
    for (const c of made) contacts.push({ id: c.id, name: c.name, email: c.email })
  }
  return { orgId: me.organization_id, adminId: me.id, agents, contacts }
}

async function benchEngine(setup: EngineSetup): Promise<EngineBench> {
  const { engine, binary, dir, name, env } = setup
  const scale = scaleOf(REPORTS_TICKETS)
  log(`${engine}: first start, agents and contacts through the API`)
  const first = await startInstance(binary, dir, name, env)
  let made: Omit<World, 'start' | 'end'>
  try {
    made = await makeWorld(first)
  } finally {
    await first.stop()
  }
  const end = Math.floor(Date.now() / DAY) * DAY
  const world: World = { ...made, start: end - SPAN_DAYS * DAY, end }

  // 1. The rows and the event log, straight into the database.
  log(`${engine}: generating ${REPORTS_TICKETS.toLocaleString('en')} tickets and the rest`)
  const seedStart = performance.now()
  const seeder = setup.seeder()
  const run = (text: string) => seeder.exec(text)
  // The events the API calls wrote (users, contacts) happened after the generated ones: their seqs move past them.
  await run(`UPDATE events SET stream_seq = stream_seq + 1000000000 WHERE organization_id = '${world.orgId}'`)
  const generated = await generate(world, scale, seeder.sink, (line) => log(`${engine}: ${line}`))
  await seeder.finish()
  await run(
    `UPDATE events SET stream_seq = stream_seq - 1000000000 + ${generated.events} WHERE organization_id = '${world.orgId}' AND stream_seq > 1000000000`,
  )
  await run(
    `INSERT INTO ticket_counters (organization_id, last_number) VALUES ('${world.orgId}', ${scale.tickets}) ON CONFLICT (organization_id) DO UPDATE SET last_number = excluded.last_number`,
  )
  log(`${engine}: analyze`)
  await run(engine === 'SQLite' ? 'ANALYZE' : 'VACUUM ANALYZE')
  await seeder.close()
  const seedS = seconds(performance.now() - seedStart)
  const rows = Object.values(generated.counts).reduce((a, b) => a + b, 0)
  log(`${engine}: ${rows.toLocaleString('en')} rows (${generated.events.toLocaleString('en')} events) in ${seedS.toFixed(0)} s`)

  // The whole log folded in this process, batch after batch, against a time limit.
  const config = loadConfig({ ...env, DATA_DIR: dataDirOf(dir, name), LOG_LEVEL: 'warn' })
  const opened = await openCommandContext(config, createLogger({ level: 'warn', sink: memorySink() }))
  const tally = new Map<string, { n: number; ms: number }>()
  const app = { db: profiled(opened.app.db, tally), clock: opened.app.clock }
  let folded = 0
  let complete = false
  const foldStart = performance.now()
  let nextLine = foldStart + 60_000
  for (;;) {
    const n = await foldBatch(app, world.orgId, FOLD_BATCH)
    folded += n
    if (n === 0) {
      complete = true
      break
    }
    const now = performance.now()
    if (now > nextLine) {
      nextLine = now + 60_000
      log(`${engine}: folded ${folded.toLocaleString('en')} events, ${Math.round(folded / seconds(now - foldStart))} events/s`)
    }
    if (now - foldStart > FOLD_LIMIT_S * 1000) break
  }
  const foldS = seconds(performance.now() - foldStart)
  const countOf = async (table: string) => Number((await opened.app.db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n)
  const [facts, buckets, states, logEvents] = [
    await countOf('report_facts'),
    await countOf('report_totals'),
    await countOf('report_state'),
    await countOf('events'),
  ]
  await opened.close()
  const profile = [...tally].map(([what, { n }]) => ({ what, n })).sort((a, b) => b.n - a.n)
  log(`${engine}: fold ${complete ? 'done' : 'stopped'}: ${folded.toLocaleString('en')} events in ${foldS.toFixed(0)} s`)

  const result: EngineBench = {
    engine,
    seedS,
    rows,
    events: logEvents,
    foldS,
    folded,
    complete,
    facts,
    buckets,
    states,
    profile,
    queries: [],
    agreement: [],
  }
  if (!complete) return result

  // 2 and 3. The reports through the server, and the same figures by plain SQL.
  const server = await startInstance(binary, dir, name, env)
  const plain = setup.plain()
  try {
    const headers = await signIn(server.base)
    const get = async (path: string) => {
      const response = await fetch(`${server.base}${path}`, { headers })
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`)
      return response.json()
    }
    const from90 = end - 90 * DAY
    const summaryPath = `/api/v1/reports/summary?metrics=${SUMMARY_METRICS.join(',')}&from=${day(from90)}&to=${day(end)}&tz=UTC`
    const seriesPath = `/api/v1/reports/timeseries?metric=tickets.created&granularity=day&group_by=assignee&from=${day(end - 365 * DAY)}&to=${day(end)}&tz=UTC`
    const livePath = '/api/v1/reports/live'

    const summary = (await get(summaryPath)) as { metrics: { metric: string; value: unknown }[] }
    const plainNow = await plainSummary(plain, world.orgId, from90, end)
    for (const metric of [
      'tickets.created',
      'tickets.solved',
      'tickets.first_response_time',
      'calls.answered',
      'calls.speed_of_answer',
      'surveys.csat',
    ])
      result.agreement.push({ what: metric, report: summary.metrics.find((m) => m.metric === metric)?.value, plain: plainNow[metric] })
    const series = (await get(seriesPath)) as { series: { group: string; total: number }[] }
    const plainSeries = await plainTimeseries(plain, world.orgId, end - 365 * DAY, end)
    const sum = (points: Map<number, number> | undefined) => [...(points ?? new Map<number, number>()).values()].reduce((a, b) => a + b, 0)
    const largest = [...plainSeries].filter(([g]) => g !== 'other').sort((a, b) => sum(b[1]) - sum(a[1]))[0]
    result.agreement.push({
      what: 'timeseries: series; largest; other (365 days)',
      report: `${series.series.length}; ${series.series[0]?.total}; ${series.series.find((s) => s.group === 'other')?.total}`,
      plain: `${plainSeries.size}; ${sum(largest?.[1])}; ${sum(plainSeries.get('other'))}`,
    })

    const figure = async (what: string, target: number, report: () => Promise<unknown>, plainRun: () => Promise<unknown>) => {
      log(`${engine}: timing ${what}`)
      const r = await p50Of(async () => {
        await report()
      })
      const p = await p50Of(async () => {
        await plainRun()
      })
      result.queries.push({ what, target, report: r.p50, plain: p.p50, samples: r.n })
    }
    await figure(
      'summary: 8 metrics, 90 days + previous',
      TARGETS.summary,
      () => get(summaryPath),
      async () => {
        await plainSummary(plain, world.orgId, from90, end)
        await plainSummary(plain, world.orgId, from90 - 90 * DAY, from90)
      },
    )
    await figure(
      'timeseries: 365 days by assignee',
      TARGETS.timeseries,
      () => get(seriesPath),
      () => plainTimeseries(plain, world.orgId, end - 365 * DAY, end),
    )
    await figure(
      'live',
      TARGETS.live,
      () => get(livePath),
      () => plainLive(plain, world.orgId),
    )
  } finally {
    await plain.close()
    await server.stop()
  }
  return result
}

// ----------------------------------------------------------------------------- ticket creation

function git(args: string[], cwd = ROOT): string {
  const result = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.toString()}`)
  return result.stdout.toString()
}

/** REPORTS_BASELINE's binary, built in a temporary worktree (removed afterwards). */
function buildBaseline(dir: string, outfile: string): void {
  const tree = join(dir, 'baseline-src')
  git(['worktree', 'add', '--detach', tree, REPORTS_BASELINE])
  try {
    for (const command of [
      [process.execPath, 'install', '--frozen-lockfile'],
      [process.execPath, 'run', 'build'],
    ]) {
      const result = Bun.spawnSync(command, { cwd: tree, stdout: 'pipe', stderr: 'pipe' })
      if (result.exitCode !== 0) throw new Error(`${command.join(' ')} failed: ${result.stderr.toString()}`)
    }
    copyFileSync(join(tree, 'dist/switchboard'), outfile)
  } finally {
    git(['worktree', 'remove', '--force', tree])
  }
}

export interface CreateBench {
  engine: EngineBench['engine']
  withReports: LoadResult
  baseline: LoadResult
  /** After each of this tree's rounds: events written, seconds until its fold had read them all. */
  catchUp: { events: number; seconds: number }[]
}

async function benchCreate(
  engine: EngineBench['engine'],
  binaries: { current: string; baseline: string },
  dir: string,
  env: (which: 'new' | 'old') => Record<string, string>,
  progressOf: () => Promise<{ last: number; folded: number }>,
): Promise<CreateBench> {
  const tag = engine === 'SQLite' ? 'sqlite' : 'pg'
  const [current, baseline] = await Promise.all([
    startInstance(binaries.current, dir, `create-new-${tag}`, env('new')),
    startInstance(binaries.baseline, dir, `create-old-${tag}`, env('old')),
  ])
  const catchUp: CreateBench['catchUp'] = []
  try {
    const body = '{"subject":"Bench ticket","tags":["bench"]}'
    const target = (instance: Instance, label: string, headers: Record<string, string>) => ({
      label,
      url: `${instance.base}/api/v1/tickets`,
      method: 'POST' as const,
      body,
      headers: { ...headers, 'content-type': 'application/json' },
    })
    const targets = [
      target(current, 'this tree (reports on)', await signIn(current.base)),
      target(baseline, `${REPORTS_BASELINE} (before reports)`, await signIn(baseline.base)),
    ]
    const [withReports, before] = await compare(targets, ROUNDS, async (_result, index) => {
      if (index !== 0) return
      // This tree's fold reads what the load wrote before the other binary is measured.
      const start = performance.now()
      const first = await progressOf()
      for (;;) {
        const { last, folded } = await progressOf()
        if (folded >= last) {
          catchUp.push({ events: last - first.folded, seconds: seconds(performance.now() - start) })
          return
        }
        if (performance.now() - start > 300_000) throw new Error(`${engine}: the fold did not catch up in 5 minutes (${folded} of ${last})`)
        await Bun.sleep(200)
      }
    })
    return { engine, withReports: withReports!, baseline: before!, catchUp }
  } finally {
    await Promise.all([current.stop(), baseline.stop()])
  }
}

// ------------------------------------------------------------------------------------------ all

/** A fresh PostgreSQL, or undefined (and why, in `skipped`) when it is not installed or does not start. */
async function tryPostgres(skipped: string[]): Promise<RunningService | undefined> {
  if (!postgresAvailable) {
    skipped.push('PostgreSQL: not installed (Debian package postgresql): its figures are left out')
    return undefined
  }
  try {
    return await startPostgres()
  } catch (error) {
    skipped.push(`PostgreSQL: did not start (${(error as Error).message}): its figures are left out`)
    return undefined
  }
}

export interface ReportsBench {
  engines: EngineBench[]
  creates: CreateBench[]
  skipped: string[]
}

export async function benchReports(
  report: { engine?: (e: EngineBench) => void; create?: (c: CreateBench) => void } = {},
): Promise<ReportsBench> {
  const dir = tempDir('switchboard-bench-reports-')
  const engines: EngineBench[] = []
  const creates: CreateBench[] = []
  const skipped: string[] = []
  const masterKey = randomBytes(32).toString('hex')
  const common = { LOG_LEVEL: 'warn', MASTER_KEY: masterKey, RATE_LIMITS_ENABLED: 'false' }
  let postgres: RunningService | undefined
  try {
    const binary = join(dir, 'switchboard')
    const baselineBinary = join(dir, 'switchboard-baseline')
    log(`building this tree's binary and ${REPORTS_BASELINE}'s`)
    await buildBinary(binary)
    buildBaseline(dir, baselineBinary)

    const sqliteName = 'reports-sqlite'
    const sqlitePath = join(dataDirOf(dir, sqliteName), 'switchboard.db')
    const engineDone = (e: EngineBench) => {
      engines.push(e)
      report.engine?.(e)
    }
    if (PARTS.has('sqlite'))
      engineDone(
        await benchEngine({
          engine: 'SQLite',
          binary,
          dir,
          name: sqliteName,
          env: common,
          seeder() {
            const db = new Database(sqlitePath)
            db.run('PRAGMA busy_timeout = 5000')
            const sink = new SqliteSink(db)
            return {
              sink,
              finish: async () => sink.finish(),
              exec: async (text) => void db.run(text),
              close: async () => db.close(),
            }
          },
          plain: () => plainSqlite(sqlitePath),
        }),
      )
    if (KEEP) log(`SQLite data kept in ${dataDirOf(dir, sqliteName)}`)
    else rmSync(dataDirOf(dir, sqliteName), { recursive: true, force: true })

    postgres = PARTS.has('postgres') ? await tryPostgres(skipped) : undefined
    if (postgres) {
      const url = postgres.url
      engineDone(
        await benchEngine({
          engine: 'PostgreSQL',
          binary,
          dir,
          name: 'reports-pg',
          env: { ...common, DATABASE_URL: url },
          seeder() {
            const sql = new Bun.SQL(url, { max: 4 })
            const sink = new PostgresSink(sql)
            return {
              sink,
              finish: () => sink.finish(),
              exec: async (text) => void (await sql.unsafe(text)),
              close: () => sql.close(),
            }
          },
          plain: () => plainPostgres(url),
        }),
      )
      await postgres.stop()
      postgres = undefined
    }

    // 4. Ticket creation with reports against the tree before them, fresh deployments.
    if (!PARTS.has('create')) return { engines, creates, skipped }
    log('ticket creation: this tree against the baseline, SQLite')
    const sqliteOf = (name: string) => join(dataDirOf(dir, name), 'switchboard.db')
    const createDone = (c: CreateBench) => {
      creates.push(c)
      report.create?.(c)
    }
    createDone(
      await benchCreate(
        'SQLite',
        { current: binary, baseline: baselineBinary },
        dir,
        () => common,
        async () => {
          const db = new Database(sqliteOf('create-new-sqlite'), { readonly: true })
          try {
            const row = db
              .query<{ last: number | null; folded: number | null }, []>(
                'SELECT (SELECT max(stream_seq) FROM events) AS last, (SELECT max(folded_seq) FROM report_progress) AS folded',
              )
              .get()!
            return { last: Number(row.last ?? 0), folded: Number(row.folded ?? 0) }
          } finally {
            db.close()
          }
        },
      ),
    )
    postgres = skipped.length === 0 ? await tryPostgres(skipped) : undefined
    if (postgres) {
      log('ticket creation: this tree against the baseline, PostgreSQL')
      const admin = new Bun.SQL(postgres.url, { max: 1 })
      await admin.unsafe('CREATE DATABASE create_new')
      await admin.unsafe('CREATE DATABASE create_old')
      await admin.close()
      const urlOf = (database: string) => postgres!.url.replace(/\/switchboard$/, `/${database}`)
      const progress = new Bun.SQL(urlOf('create_new'), { max: 1 })
      try {
        createDone(
          await benchCreate(
            'PostgreSQL',
            { current: binary, baseline: baselineBinary },
            dir,
            (which) => ({ ...common, DATABASE_URL: urlOf(which === 'new' ? 'create_new' : 'create_old') }),
            async () => {
              const [row] = (await progress.unsafe(
                'SELECT (SELECT max(stream_seq) FROM events) AS last, (SELECT max(folded_seq) FROM report_progress) AS folded',
              )) as { last: number | null; folded: number | null }[]
              return { last: Number(row!.last ?? 0), folded: Number(row!.folded ?? 0) }
            },
          ),
        )
      } finally {
        await progress.close()
      }
    }
    return { engines, creates, skipped }
  } finally {
    await postgres?.stop()
    if (!KEEP) rmSync(dir, { recursive: true, force: true })
  }
}

// ------------------------------------------------------------------------------------------ print

const fmt = (n: number, digits = 1) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const show = (value: unknown) =>
  typeof value === 'number'
    ? Number.isInteger(value)
      ? String(value)
      : value.toFixed(4)
    : value && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .map(([k, v]) => `${k} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : v}`)
          .join(', ')
      : String(value)

const out = (line: string) => process.stdout.write(`  ${line}\n`)

export function printEngineBench(e: EngineBench): void {
  out(`${e.engine}:`)
  out(
    `  data: ${e.rows.toLocaleString('en')} rows incl. ${e.events.toLocaleString('en')} events, written in ${fmt(e.seedS, 0)} s (${fmt(e.rows / e.seedS, 0)} rows/s)`,
  )
  out(
    `  fold (${FOLD_BATCH} events a transaction): ${e.folded.toLocaleString('en')} of ${e.events.toLocaleString('en')} events in ${fmt(e.foldS, 0)} s = ${fmt(e.folded / e.foldS, 0)} events/s${e.complete ? '' : `   STOPPED at the ${FOLD_LIMIT_S} s limit: the whole log would take ~${fmt(e.events / (e.folded / e.foldS) / 60, 0)} min`}`,
  )
  out(
    `        ${e.facts.toLocaleString('en')} facts, ${e.buckets.toLocaleString('en')} buckets, ${e.states.toLocaleString('en')} state entries`,
  )
  const statements = e.profile.reduce((sum, p) => sum + p.n, 0)
  const per1000 = (n: number) => fmt((n * 1000) / Math.max(1, e.folded), 1)
  out(
    `  fold's statements: ${per1000(statements)} per 1,000 events (${fmt((e.foldS * 1000) / Math.max(1, statements), 2)} ms of fold per statement): ${e.profile
      .slice(0, 6)
      .map((p) => `${p.what} ${per1000(p.n)}`)
      .join(', ')}`,
  )
  if (!e.complete) {
    out('  queries skipped: the log is not folded')
    return
  }
  out(`  ${'figure'.padEnd(40)}${'report p50'.padStart(12)}${'plain p50'.padStart(12)}${'report/plain'.padStart(14)}   target`)
  for (const q of e.queries)
    out(
      `  ${q.what.padEnd(40)}${`${fmt(q.report)} ms`.padStart(12)}${`${fmt(q.plain)} ms`.padStart(12)}${fmt(q.report / q.plain, 2).padStart(14)}   < ${q.target} ms ${q.report < q.target ? 'met' : 'MISSED'} (${q.samples} requests)`,
    )
  out(
    "  report value | plain SQL value, 90 days (solved: the table keeps a ticket's last solve only; first response: plain counts by creation, the report by the response):",
  )
  for (const a of e.agreement) out(`    ${a.what.padEnd(42)}${show(a.report)} | ${show(a.plain)}`)
}

export function printCreateBench(c: CreateBench): void {
  const ratio = c.withReports.rps / c.baseline.rps
  out(`Ticket creation, ${c.engine}, fresh deployments (${GENERATOR}, ${DURATION_S} s, median of ${ROUNDS} alternating rounds):`)
  for (const l of [c.withReports, c.baseline])
    out(
      `  ${l.label.padEnd(34)}${String(l.rps).padStart(7)} req/s   p50 ${l.p50} ms   p99 ${l.p99} ms${l.errors || l.non2xx ? `   errors ${l.errors} non-2xx ${l.non2xx}` : ''}`,
    )
  out(`  with reports / before = ${ratio.toFixed(2)} (target >= 0.95) ${ratio >= 0.95 ? 'met' : 'MISSED'}`)
  out(
    `  fold catch-up after each round: ${c.catchUp.map((x) => `${x.events.toLocaleString('en')} events in ${fmt(x.seconds)} s`).join('; ')}`,
  )
}

export function printReportsBench(r: ReportsBench): void {
  for (const note of r.skipped) out(`skipped: ${note}`)
  for (const e of r.engines) printEngineBench(e)
  for (const c of r.creates) printCreateBench(c)
}

export async function runReportsBench(): Promise<void> {
  process.stdout.write(`${REPORTS_HEADER}\n`)
  const r = await benchReports({ engine: printEngineBench, create: printCreateBench })
  for (const note of r.skipped) out(`skipped: ${note}`)
}

if (import.meta.main) await runReportsBench()
