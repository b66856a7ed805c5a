// What the reports' fixture tests share: an app on a fake clock started at a chosen instant, one or more
// organizations that go through the same fixture (one of them folded part way, so the fold's memory
// between batches is exercised), requests as each role (signed in again as the fake clock moves on),
// the reports read as JSON and as CSV, and the checks run once before the fold and once after it.
import { afterAll, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { foldAll, rebuildReports } from '../../../src/modules/reports/index.ts'
import { foldBatch } from '../../../src/modules/reports/fold-task.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import type { Auth } from '../../helpers/errors.ts'
import { type SeededOrg, seedOrganization, signIn } from '../../helpers/seed.ts'

export { type ErrorBody, expectError } from '../../helpers/errors.ts'

export const SECOND = 1000
export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

export type Role = 'super_admin' | 'admin' | 'supervisor' | 'agent' | 'viewer'
export type Query = Record<string, string | number | undefined>

export interface Duration {
  count: number
  mean: number | null
  p50: number | null
  p90: number | null
}
export type Value = number | null | Duration

/** A duration's statistics, as the reports give them. */
export const duration = (count: number, mean: number | null, p50: number | null, p90: number | null): Duration => ({
  count,
  mean,
  p50,
  p90,
})
export const NO_DURATION = duration(0, null, null, null)

export interface SummaryRow {
  metric: string
  name: string
  unit: string
  value: Value
  previous?: Value
  change: { difference: number; ratio: number | null } | null
}
export interface Summary {
  from: string
  to: string
  tz: string
  hours: string
  compare: string
  previous_from: string | null
  previous_to: string | null
  as_of: string
  definitions_version: string
  metrics: SummaryRow[]
}
export interface Point {
  start: string
  label: string
  value: Value
}
export interface Series {
  group: string | null
  total: Value
  points: Point[]
}
export interface Timeseries {
  metric: string
  unit: string
  granularity: string
  group_by: string | null
  from: string
  to: string
  tz: string
  hours: string
  series: Series[]
}
export interface RecordRow {
  record_type: string
  record_id: string
  at: string
  started_at: string | null
  value: number | null
  business_value: number | null
  dimensions: Record<string, unknown>
}
export interface Records {
  metric: string
  total_count: number
  records: RecordRow[]
  next_page_token: string | null
}
export interface AgentRow {
  agent_id: string
  status_seconds: Record<string, number>
  tickets_solved: number
  calls_answered: number
  handle_time: Duration
  sessions_closed: number
  logged_in_seconds: number
  occupancy: number | null
}
export interface AgentsReport {
  from: string
  to: string
  tz: string
  agents: AgentRow[]
  next_page_token: string | null
}

/** An organization of the fixture: its users, requests as each of them, the ids the fixture made in it. */
export interface Org {
  readonly name: string
  readonly id: string
  readonly seeded: SeededOrg
  /** Folded by `play` at the steps that ask for it (the other organizations are folded only by the tests). */
  readonly foldsMidway: boolean
  /** Ids the fixture made (tickets, calls…), by the fixture's own names. */
  readonly ids: Record<string, string>
  /** The id the fixture made under `name` (throws when there is none). */
  ref(name: string): string
  userId(role: Role): string
  auth(role: Role): Promise<Auth>
  send(role: Role, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  /** Sends, checks the status (showing the body otherwise) and reads the JSON answer. */
  ok<T = Record<string, unknown>>(role: Role, method: string, path: string, body?: unknown, status?: number): Promise<T>
  /** GET of a report: 200 and its JSON. */
  report<T>(path: string, query: Query, role?: Role, headers?: Record<string, string>): Promise<T>
  /** GET of a report as CSV (`format=csv`), checked equal to the one `Accept: text/csv` gives: its rows, header first. */
  csv(path: string, query: Query, role?: Role): Promise<string[][]>
}

export function queryString(query: Query): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value))
  return params.toString()
}

/** An app whose fake clock starts at `start`, with organizations seeded then (each with one user of every role). */
export async function reportsApp(options: {
  start: string
  orgs?: readonly { name: string; foldsMidway?: boolean }[]
  settings?: Record<string, string>
}) {
  const clock = new FakeClock(Date.parse(options.start))
  const app = await makeTestApp({ PUBLIC_URL: 'https://switchboard.example', ...options.settings }, { clock })
  afterAll(() => app.close())
  const orgs: Org[] = []
  for (const spec of options.orgs ?? [{ name: 'acme' }]) orgs.push(await orgClient(app, spec.name, spec.foldsMidway ?? false))
  const at = (iso: string) => moveClock(app, iso)
  return { app, clock, orgs, org: orgs[0]!, at }
}

/** Moves the fake clock forward to `iso` (never back: the log is written in time order). */
export function moveClock(app: TestApp, iso: string): void {
  const target = Date.parse(iso)
  if (!Number.isFinite(target)) throw new Error(`not a time: ${iso}`)
  if (target < app.clock.now()) throw new Error(`the clock is at ${new Date(app.clock.now()).toISOString()}, past ${iso}`)
  app.clock.advance(target - app.clock.now())
}

async function orgClient(app: TestApp, name: string, foldsMidway: boolean): Promise<Org> {
  const seeded = await seedOrganization(app, name)
  const signedIn = new Map<Role, { at: number; auth: Auth }>()
  for (const [role, user] of Object.entries(seeded.users) as [Role, (typeof seeded.users)[Role]][])
    signedIn.set(role, { at: app.clock.now(), auth: user.auth })
  // Access tokens live an hour: a new sign-in once half of it has passed on the fake clock.
  const auth = async (role: Role): Promise<Auth> => {
    const current = signedIn.get(role)!
    if (app.clock.now() - current.at < 30 * MINUTE) return current.auth
    const fresh = { at: app.clock.now(), auth: (await signIn(app, seeded.users[role].user)).auth }
    signedIn.set(role, fresh)
    return fresh.auth
  }
  const send = async (role: Role, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      headers: {
        ...(headers['x-api-key'] === undefined ? await auth(role) : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ok = async <T>(role: Role, method: string, path: string, body?: unknown, status?: number): Promise<T> => {
    const response = await send(role, method, path, body)
    const expected = status ?? (method === 'POST' && response.status === 201 ? 201 : 200)
    if (response.status !== expected)
      expect({ request: `${method} ${path}`, status: response.status, body: await response.text() }).toEqual({
        request: `${method} ${path}`,
        status: expected,
        body: '',
      })
    return response.status === 204 ? (undefined as T) : json<T>(response)
  }
  const report = async <T>(path: string, query: Query, role: Role = 'admin', headers: Record<string, string> = {}): Promise<T> => {
    const url = `/api/v1/reports/${path}?${queryString(query)}`
    const response = await send(role, 'GET', url, undefined, headers)
    if (response.status !== 200)
      expect({ request: url, status: response.status, body: await response.text() }).toEqual({ request: url, status: 200, body: '' })
    return json<T>(response)
  }
  const csv = async (path: string, query: Query, role: Role = 'admin'): Promise<string[][]> => {
    const byFormat = await send(role, 'GET', `/api/v1/reports/${path}?${queryString({ ...query, format: 'csv' })}`)
    const byAccept = await send(role, 'GET', `/api/v1/reports/${path}?${queryString(query)}`, undefined, { accept: 'text/csv' })
    const text = await byFormat.text()
    expect({ status: byFormat.status, type: byFormat.headers.get('content-type') }).toEqual({
      status: 200,
      type: 'text/csv; charset=utf-8',
    })
    expect({ status: byAccept.status, type: byAccept.headers.get('content-type'), text: await byAccept.text() }).toEqual({
      status: 200,
      type: 'text/csv; charset=utf-8',
      text,
    })
    return parse(text, { relax_column_count: true }) as string[][]
  }
  const ids: Record<string, string> = {}
  return {
    name,
    id: seeded.org.id,
    seeded,
    foldsMidway,
    ids,
    ref: (key) => {
      const value = ids[key]
      if (value === undefined) throw new Error(`the fixture made no ${key} in ${name}`)
      return value
    },
    userId: (role) => seeded.users[role].user.id,
    auth,
    send,
    ok,
    report,
    csv,
  }
}

/** One step of a fixture: at an instant, done in every organization; `fold`: then fold the organizations that fold midway. */
export interface Step {
  readonly at: string
  readonly run: (org: Org) => Promise<unknown>
  readonly fold?: boolean
}

/** Plays the steps in order, each in every organization, moving the clock to each step's instant. */
export async function play(app: TestApp, orgs: readonly Org[], steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    moveClock(app, step.at)
    for (const org of orgs) await step.run(org)
    if (step.fold) for (const org of orgs) if (org.foldsMidway) while ((await foldBatch(app.context, org.id)) > 0) {}
  }
}

/**
 * Registers each check three times, for every organization: before the fold (the reports fold the events
 * themselves), after `foldAll` (from the buckets and facts) and after `reports rebuild` (the whole log
 * folded again): the figures must be the same.
 */
export function beforeAndAfterFold(app: TestApp, orgs: () => readonly Org[], checks: Record<string, (org: Org) => Promise<void>>): void {
  const register = (stage: string) => {
    for (const [name, check] of Object.entries(checks))
      test(`${name} (${stage})`, async () => {
        for (const org of orgs()) await check(org)
      })
  }
  register('before the fold')
  test('the fold reads the rest of the log', async () => {
    expect(await foldAll(app.context)).toBeGreaterThan(0)
    expect(await foldAll(app.context)).toBe(0)
  })
  register('after the fold')
  test('reports rebuild forgets what was folded and folds the whole log again', async () => {
    for (const org of orgs()) expect(await rebuildReports(app.context, org.id)).toBeGreaterThan(0)
  })
  register('after a rebuild')
}

/** A summary's figures as a test states them: value, previous and change. */
export function summaryFigures(summary: Summary) {
  return Object.fromEntries(summary.metrics.map((row) => [row.metric, { value: row.value, previous: row.previous, change: row.change }]))
}

/** The change of a figure from the previous one, as the summary computes it (on the mean for durations). */
export function change(value: Value, previous: Value): { difference: number; ratio: number | null } | null {
  const headline = (v: Value) => (v === null || typeof v === 'number' ? v : v.mean)
  const now = headline(value)
  const before = headline(previous)
  if (now === null || before === null) return null
  return {
    difference: Math.round((now - before) * 10_000) / 10_000,
    ratio: before === 0 ? null : Math.round(((now - before) / before) * 10_000) / 10_000,
  }
}

/** A value as CSV cells: a number (empty for null), or a duration's count, mean, p50 and p90. */
export function cells(value: Value | undefined, isDuration: boolean): string[] {
  const cell = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))
  if (!isDuration) return [cell(value as number | null)]
  const d = (value ?? NO_DURATION) as Duration
  return [cell(d.count), cell(d.mean), cell(d.p50), cell(d.p90)]
}

/** CSV rows (header first) as objects keyed by the header's names. */
export function csvObjects(rows: readonly string[][]): Record<string, string>[] {
  const [header, ...body] = rows
  return body.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i] ?? ''])))
}

/**
 * The CSV rows (as objects) a summary must give for these figures: a number in `value`, a duration in
 * `count`, `mean`, `p50`, `p90` (the others empty), the same for the previous figure, then the change.
 */
export function summaryCsvObjects(
  figures: readonly { metric: string; unit: string; duration: boolean; value: Value; previous: Value }[],
): Record<string, string>[] {
  const columns = (prefix: string, value: Value, isDuration: boolean) => {
    const [count, mean, p50, p90] = isDuration ? cells(value, true) : ['', '', '', '']
    return {
      [`${prefix}value`]: isDuration ? '' : cells(value, false)[0]!,
      [`${prefix}count`]: count!,
      [`${prefix}mean`]: mean!,
      [`${prefix}p50`]: p50!,
      [`${prefix}p90`]: p90!,
    }
  }
  return figures.map((f) => {
    const moved = change(f.value, f.previous)
    return {
      metric: f.metric,
      unit: f.unit,
      ...columns('', f.value, f.duration),
      ...columns('previous_', f.previous, f.duration),
      change_difference: moved === null ? '' : String(moved.difference),
      change_ratio: moved === null || moved.ratio === null ? '' : String(moved.ratio),
    }
  })
}

/** Every record of a figure (one page of up to 100). */
export async function allRecords(org: Org, query: Query, role: Role = 'admin'): Promise<Records> {
  const page = await org.report<Records>('records', query, role)
  expect({ total_count: page.total_count, listed: page.records.length, next_page_token: page.next_page_token }).toEqual({
    total_count: page.records.length,
    listed: page.records.length,
    next_page_token: null,
  })
  return page
}

/** The records of a figure a few at a time: page after page, the same records as one page gives. */
export async function pagedRecords(org: Org, query: Query, pageSize: number, role: Role = 'admin'): Promise<Records> {
  const first = await org.report<Records>('records', { ...query, page_size: pageSize }, role)
  const records = [...first.records]
  let token = first.next_page_token
  while (token !== null && token !== '') {
    const page = await org.report<Records>('records', { ...query, page_size: pageSize, page_token: token }, role)
    expect(page.total_count).toBe(first.total_count)
    expect(page.records.length).toBeLessThanOrEqual(pageSize)
    records.push(...page.records)
    token = page.next_page_token
  }
  expect(records.length).toBe(first.total_count)
  return { ...first, records, next_page_token: null }
}

/** The points of a series as [label, value] pairs. */
export const pointsOf = (series: Series) => series.points.map((p) => [p.label, p.value])

/** A series' points as the CSV's rows: start, label, group, value cells. */
export function timeseriesCsvRows(report: Timeseries, isDuration: boolean): string[][] {
  const header = ['start', 'label', 'group', ...(isDuration ? ['count', 'mean', 'p50', 'p90'] : ['value'])]
  return [header, ...report.series.flatMap((s) => s.points.map((p) => [p.start, p.label, s.group ?? '', ...cells(p.value, isDuration)]))]
}

/** Hours of a UTC day as labels ('2026-01-05T09:00+00:00'). */
export const utcHourLabels = (date: string) => Array.from({ length: 24 }, (_, h) => `${date}T${String(h).padStart(2, '0')}:00+00:00`)

/** The agents report's CSV rows (as objects) for these rows: a column per status any of them has. */
export function agentsCsvObjects(rows: readonly AgentRow[]): Record<string, string>[] {
  const statuses = [...new Set(rows.flatMap((row) => Object.keys(row.status_seconds)))].sort()
  return rows.map((row) => {
    const [count, mean, p50, p90] = cells(row.handle_time, true)
    return {
      agent_id: row.agent_id,
      tickets_solved: String(row.tickets_solved),
      calls_answered: String(row.calls_answered),
      handle_time_count: count!,
      handle_time_mean: mean!,
      handle_time_p50: p50!,
      handle_time_p90: p90!,
      sessions_closed: String(row.sessions_closed),
      logged_in_seconds: String(row.logged_in_seconds),
      occupancy: cells(row.occupancy, false)[0]!,
      ...Object.fromEntries(statuses.map((s) => [`status_${s}_seconds`, String(row.status_seconds[s] ?? 0)])),
    }
  })
}
