// Reports on the compiled binary and the real clock, with the shortest settings (the fold every second,
// cron ticks of 100 ms): changes made through the API show in /reports/live and /reports/summary at
// once (a report folds what the fold has not read yet); once the binary's own reports_fold task has read
// everything (/health's cron.reports_fold.runs, and report_progress at the end of the log), every figure,
// series and record is unchanged; `switchboard reports rebuild`, run against the same data directory while
// the server runs, folds the whole log again and changes nothing either. Generous deadlines, no timing
// assertions.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DataDirDb, openDataDirDb } from '../helpers/data-dir-db.ts'
import { run, type RunningServer, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-reports-clock-')
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@reports-clock.test',
  ADMIN_PASSWORD: 'reports-clock-test-password',
  REPORTS_FOLD_INTERVAL: '1',
  CRON_TICK_MS: '100',
  // Each check asks for a handful of reports: more than the 10 a minute a user may (tested on the fake clock).
  RATE_LIMITS_ENABLED: 'false',
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

let server: RunningServer | undefined
let db: DataDirDb
let token = ''
let organizationId = ''
const started = Date.now()

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; text: string }> {
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text, body: text.startsWith('{') ? JSON.parse(text) : {} }
}

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const got = await call(method, path, body)
  expect({ method, path, status: got.status, body: got.body }).toMatchObject({ method, path, status })
  return got.body
}

const health = async () => (await (await fetch(`${server!.url}/health`)).json()) as Json
const foldRuns = async () => Number((await health()).cron?.reports_fold?.runs ?? -1)

/** How far the fold got, and where the organization's log ends. */
async function progress(): Promise<{ folded: number; last: number }> {
  const folded = await db.get<{ seq: number }>('SELECT folded_seq AS seq FROM report_progress WHERE organization_id = ?', [organizationId])
  const last = await db.get<{ seq: number }>('SELECT max(stream_seq) AS seq FROM events WHERE organization_id = ?', [organizationId])
  return { folded: Number(folded?.seq ?? 0), last: Number(last?.seq ?? 0) }
}

const METRICS = [
  'tickets.created',
  'tickets.solved',
  'tickets.reopened',
  'tickets.first_response_time',
  'tickets.resolution_time',
  'calls.offered',
  'calls.answered',
  'calls.abandoned',
  'calls.speed_of_answer',
  'calls.handle_time',
]
// From before anything was made to a day ahead: every change counts, whenever it is asked.
const windowOf = () => `from=${new Date(started - 3_600_000).toISOString()}&to=${new Date(started + 86_400_000).toISOString()}`

/** Every report of the organization over the window, without the time each was asked. */
async function reports() {
  const strip = ({ as_of: _, ...rest }: Json) => rest
  return {
    summary: strip(await ok('GET', `/api/v1/reports/summary?metrics=${METRICS.join(',')}&${windowOf()}`)),
    series: strip(
      await ok(
        'GET',
        `/api/v1/reports/timeseries?metric=tickets.created&granularity=hour&group_by=channel&tz=Asia/Kathmandu&${windowOf()}`,
      ),
    ),
    durations: strip(await ok('GET', `/api/v1/reports/timeseries?metric=tickets.resolution_time&granularity=day&${windowOf()}`)),
    records: strip(await ok('GET', `/api/v1/reports/records?metric=tickets.solved&${windowOf()}`)),
    calls: strip(await ok('GET', `/api/v1/reports/records?metric=calls.offered&${windowOf()}`)),
    agents: strip(await ok('GET', `/api/v1/reports/agents?${windowOf()}`)),
  }
}
const valuesOf = (summary: Json) => Object.fromEntries((summary.metrics as Json[]).map((m) => [m.metric, m.value]))

const s = {} as { immediate: Awaited<ReturnType<typeof reports>>; live: Json; ticketIds: string[]; runsBefore: number }

describe('reports on the real clock (one binary, the fold every second)', () => {
  beforeAll(async () => {
    server = await startServer([await compiledBinary()], env, folder)
    db = await openDataDirDb(env.DATA_DIR, { readonly: true })
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    })
    token = ((await login.json()) as Json).access_token
    organizationId = (await ok('GET', '/api/v1/me')).organization_id
    s.runsBefore = await foldRuns()
  }, 180_000)

  afterAll(async () => {
    await server?.stop('SIGTERM')
    await db?.close()
    rmSync(folder, { recursive: true, force: true })
  })

  test('a ticket made through the API is in /reports/live and /reports/summary at once', async () => {
    const ticket = await ok('POST', '/api/v1/tickets', { subject: 'Printer on fire', priority: 'urgent', channel: 'email' }, 201)
    const live = await ok('GET', '/api/v1/reports/live')
    expect(live.tickets).toMatchObject({ backlog: 1, unassigned: 1, by_status: { new: 1 }, by_priority: { urgent: 1 } })
    const first = await ok('GET', `/api/v1/reports/summary?metrics=tickets.created&compare=none&${windowOf()}`)
    expect(first.metrics[0].value).toBe(1)
    // More of each kind: a comment by the signed-in admin (a person), solved, reopened, solved again; a
    // second ticket solved; calls answered and not.
    await ok('POST', `/api/v1/tickets/${ticket.id}/comments`, { body: 'On it', public: true }, 201)
    await ok('PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'solved' })
    await ok('PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'open' })
    await ok('PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'solved' })
    const other = await ok('POST', '/api/v1/tickets', { subject: 'Refund', channel: 'web', tags: ['billing'] }, 201)
    await ok('PATCH', `/api/v1/tickets/${other.id}`, { status: 'solved' })
    await ok('POST', '/api/v1/tickets', { subject: 'Still open', channel: 'chat' }, 201)
    const answered = await ok('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550123', to: '+14155550199' }, 201)
    await ok('POST', `/api/v1/calls/${answered.id}/answer`, {})
    await ok('POST', `/api/v1/calls/${answered.id}/end`, {})
    const missed = await ok(
      'POST',
      '/api/v1/calls',
      { direction: 'inbound', from: '+14155550124', to: '+14155550199', status: 'ringing' },
      201,
    )
    await ok('POST', `/api/v1/calls/${missed.id}/end`, { status: 'no_answer' })
    s.ticketIds = [ticket.id, other.id]

    s.immediate = await reports()
    s.live = await ok('GET', '/api/v1/reports/live')
    const values = valuesOf(s.immediate.summary)
    expect(values).toMatchObject({
      'tickets.created': 3,
      'tickets.solved': 3,
      'tickets.reopened': 1,
      'tickets.first_response_time': { count: 1 },
      'tickets.resolution_time': { count: 3 },
      'calls.offered': 2,
      'calls.answered': 1,
      'calls.abandoned': 1,
      'calls.speed_of_answer': { count: 1 },
      'calls.handle_time': { count: 1 },
    })
    expect(s.live.tickets).toMatchObject({ backlog: 1, by_status: { new: 1 } })
    expect(s.immediate.records.total_count).toBe(3)
    expect((s.immediate.records.records as Json[]).map((r) => r.record_id).sort()).toEqual([ticket.id, ticket.id, other.id].sort())
    expect((s.immediate.series.series as Json[]).map((x) => [x.group, x.total])).toEqual([
      ['chat', 1],
      ['email', 1],
      ['web', 1],
    ])
  })

  test("after the binary's reports_fold task has read the whole log, every figure is unchanged", async () => {
    // The cron loop runs the fold (every second); wait until it has run and reached the end of the log.
    const deadline = Date.now() + 60_000
    let seen = { runs: -1, ...(await progress()) }
    while (Date.now() < deadline) {
      seen = { runs: await foldRuns(), ...(await progress()) }
      if (seen.runs >= s.runsBefore + 2 && seen.folded === seen.last && seen.last > 0) break
      await Bun.sleep(200)
    }
    expect(seen.runs).toBeGreaterThanOrEqual(s.runsBefore + 2)
    expect(seen.folded).toBe(seen.last)
    expect(
      Number((await db.get<{ n: number }>('SELECT count(*) AS n FROM report_facts WHERE organization_id = ?', [organizationId]))!.n),
    ).toBeGreaterThan(0)
    expect((await health()).cron.reports_fold).toMatchObject({ failures: 0 })
    expect(await reports()).toEqual(s.immediate)
    expect((await ok('GET', '/api/v1/reports/live')).tickets).toEqual(s.live.tickets)
  })

  test('`switchboard reports rebuild` on the same data directory folds the log again and changes no figure', async () => {
    const facts = async () =>
      await db.all<Json>(
        'SELECT metric, at, record_id, seq, value, dims FROM report_facts WHERE organization_id = ? ORDER BY metric, at, seq, record_id',
        [organizationId],
      )
    const before = await facts()
    const { last } = await progress()
    const rebuilt = await run([await compiledBinary(), 'reports', 'rebuild', '--org', organizationId], { DATA_DIR: env.DATA_DIR }, folder)
    expect({ code: rebuilt.code, stdout: rebuilt.stdout, stderr: rebuilt.stderr }).toEqual({
      code: 0,
      stdout: `${organizationId}: ${last} events folded\n`,
      stderr: '',
    })
    expect(await facts()).toEqual(before)
    expect(await reports()).toEqual(s.immediate)
    // Every organization's, and an unknown one refused.
    const all = await run([await compiledBinary(), 'reports', 'rebuild'], { DATA_DIR: env.DATA_DIR }, folder)
    expect(all.code).toBe(0)
    expect(all.stdout).toContain(`${organizationId}: ${last} events folded`)
    const unknown = await run([await compiledBinary(), 'reports', 'rebuild', '--org', 'org_nope'], { DATA_DIR: env.DATA_DIR }, folder)
    expect(unknown.code).not.toBe(0)
    expect(await reports()).toEqual(s.immediate)
    const stopped = await server!.stop('SIGTERM')
    server = undefined
    expect(stopped.code).toBe(0)
  })
})
