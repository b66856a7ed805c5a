// Issue 13's promise "a SQLite database created by the last release upgrades in place with every row kept",
// checked the way an operator would meet it: the database and master key that c37c888 (main before the
// data-layer port) wrote, through its API, in test/fixtures/upgrade-from-c37c888 (made by
// scripts/make-upgrade-fixture.ts, which documents how, and can make the fixture of a later release), are
// copied into a fresh DATA_DIR and this build's compiled binary is started on it. It must start, apply only
// the migrations newer than the fixture's, keep every row, let every user sign in (MFA included), serve the
// old tickets, personal access token, webhooks and deliveries, and `audit verify` must find every chain intact.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as OTPAuth from 'otpauth'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { VERSION } from '../../src/version.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { type Finished, type RunningServer, run, startServer } from '../helpers/process.ts'

const FIXTURE = join(import.meta.dir, '../fixtures/upgrade-from-c37c888')
interface Person {
  id: string
  email: string
  password: string
  role: string
}
interface FixtureTicket {
  id: string
  number: number
  status: string
  tags: string[]
  comment_ids: string[]
}
const facts = JSON.parse(readFileSync(join(FIXTURE, 'facts.json'), 'utf8')) as {
  organization_id: string
  users: Record<string, Person>
  second_organization: { id: string; owner: Person; ticket: FixtureTicket }
  totp: { user: string; secret: string; recovery_codes: string[] }
  pat: { id: string; token: string; expires_at: string }
  webhook: { id: string; url: string; events: string[] }
  paused_webhook: { id: string; url: string; events: string[] }
  tickets: FixtureTicket[]
  schema_migrations: string[]
  tables: Record<string, number>
}

// Tables this build may legitimately add rows to while it starts and while the test signs in: each sign-in
// opens a session with its refresh token and writes audit records, an MFA sign-in adds its challenge,
// /ready and the first start of a new version may write to system_kv, and the dispatcher sends the
// fixture's overdue webhook retries at once (each failed attempt queues its successor as a new record).
const MAY_GROW = new Set(['audit_logs', 'sessions', 'refresh_tokens', 'mfa_challenges', 'system_kv', 'webhook_deliveries'])
// Not compared at all: sqlite_stat1 is SQLite's own query-planner statistics (PRAGMA optimize rewrites it),
// and rate_limit_counters holds saved rate windows, whose expired rows are deleted by design at the next
// save (the fixture's day windows stop counting two days after it was made).
const NOT_DATA = new Set(['sqlite_stat1', 'rate_limit_counters'])
const EXPECTED_APPLIED = MIGRATIONS.map((m) => m.tag).filter((tag) => !facts.schema_migrations.includes(tag))

// The fixture is a SQLite file: the promise is the embedded engine's (a PostgreSQL database has no release
// before this one to upgrade from), so nothing here runs on SWITCHBOARD_TEST_ENGINE=postgres.
const sqliteOnly = TEST_ENGINE === 'postgres'

const root = mkdtempSync(join(tmpdir(), 'switchboard-upgrade-'))
const dataDir = join(root, 'data')
const pristine = join(root, 'fixture.db')
let binary: string
let server: RunningServer
let finished: Promise<Finished> | undefined
/** Stops the server once (the later tests look at what it left); every caller gets the same result. */
const stopped = () => (finished ??= server.stop('SIGTERM'))

beforeAll(async () => {
  if (sqliteOnly) return
  binary = await compiledBinary()
  mkdirSync(dataDir, { mode: 0o700 })
  for (const file of ['switchboard.db', 'master.key']) copyFileSync(join(FIXTURE, file), join(dataDir, file))
  // git keeps no permission bits but the executable one: a fresh clone has the key readable by all, which
  // the server rightly refuses; the operator's copy was 0600.
  chmodSync(join(dataDir, 'master.key'), 0o600)
  // A second copy, never opened by the server, to compare against (the committed fixture is never opened at all).
  copyFileSync(join(FIXTURE, 'switchboard.db'), pristine)
  // The time-driven clean-ups (expired refresh tokens and revocations, old delivery records, closing solved
  // tickets) delete or change rows of a fixture that ages; none runs before its first interval, and these
  // intervals keep it so, whatever the fixture's age: the test sees the upgrade, not the clean-ups.
  const env = { DATA_DIR: dataDir, AUTH_CLEANUP_INTERVAL: '86400', TICKET_AUTO_CLOSE_INTERVAL: '86400', WEBHOOK_RETENTION_DAYS: '3650' }
  server = await startServer([binary, 'serve'], env, root, 60_000)
}, 240_000)

afterAll(async () => {
  if (server) await stopped()
  rmSync(root, { recursive: true, force: true })
})

type Json = Record<string, unknown>
/** Rows of the untouched copy of the fixture. */
function fromFixture<T>(sql: string, ...params: string[]): T[] {
  const db = new Database(pristine, { readonly: true })
  try {
    return db.query<T, string[]>(sql).all(...params)
  } finally {
    db.close()
  }
}
async function call(path: string, init: { token?: string; apiKey?: string; body?: unknown } = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {}
  if (init.token) headers.authorization = `Bearer ${init.token}`
  if (init.apiKey) headers['x-api-key'] = init.apiKey
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  const method = init.body === undefined ? 'GET' : 'POST'
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as Json }
}
const login = (who: Person) => call('/api/v1/auth/login', { body: { email: who.email, password: who.password } })

/** Every item of a paginated list, following next_page_token. */
async function listAll(path: string, key: string, auth: { token?: string; apiKey?: string }): Promise<Json[]> {
  const items: Json[] = []
  for (let token = ''; ; ) {
    const separator = path.includes('?') ? '&' : '?'
    const page = await call(`${path}${separator}page_size=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, auth)
    expect({ path, status: page.status }).toEqual({ path, status: 200 })
    items.push(...(page.body[key] as Json[]))
    token = page.body.next_page_token as string
    if (!token) return items
  }
}

/** The signed-in user through /me: the token this build issued works on its own API. */
async function expectSignedIn(tokens: Json, who: Person) {
  expect(tokens.access_token).toBeString()
  const me = await call('/api/v1/me', { token: tokens.access_token as string })
  expect(me.status).toBe(200)
  expect(me.body).toMatchObject({ id: who.id, email: who.email, role: who.role, status: 'active' })
}

describe.skipIf(sqliteOnly)('a database made by c37c888, opened by this build', () => {
  test('the server starts on it: healthy, and the database takes writes', async () => {
    const health = await fetch(`${server.url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok', version: VERSION })
    expect((await fetch(`${server.url}/ready`)).status).toBe(200)
  })

  test('every user signs in with the password they had, in both organizations', async () => {
    const mfaUser = facts.users[facts.totp.user]!
    for (const who of [...Object.values(facts.users).filter((p) => p !== mfaUser), facts.second_organization.owner]) {
      const signedIn = await login(who)
      expect({ who: who.email, status: signedIn.status }).toEqual({ who: who.email, status: 200 })
      expect(signedIn.body.mfa_required).toBeUndefined() // the viewer's unconfirmed SMS enrollment is no factor
      await expectSignedIn(signedIn.body, who)
    }
  })

  test('the TOTP user completes MFA with a fresh code from the stored secret, and with a recovery code', async () => {
    const who = facts.users[facts.totp.user]!
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(facts.totp.secret), algorithm: 'SHA1', digits: 6, period: 30 })
    const challenge = await login(who)
    expect(challenge).toMatchObject({ status: 200, body: { mfa_required: true, mfa_methods: ['totp'] } })
    // A step is accepted once, and never one at or before the last accepted (RFC 6238 §5.2): just after the fixture
    // was made, its own sign-in's step may still be ahead, so wait for it (never the case with an older fixture).
    const last_step = fromFixture<{ step: number }>("SELECT last_step AS step FROM mfa_factors WHERE method = 'totp'")[0]!.step
    while (Math.floor(Date.now() / 30_000) < last_step) await Bun.sleep(250)
    const code = totp.generate({ timestamp: Math.max(Date.now(), (last_step + 1) * 30_000) })
    const verified = await call('/api/v1/auth/mfa/verify', { body: { mfa_token: challenge.body.mfa_token, code, method: 'totp' } })
    expect(verified.status).toBe(200)
    await expectSignedIn(verified.body, who)

    const again = await login(who)
    const recovery = { mfa_token: again.body.mfa_token, code: facts.totp.recovery_codes[0], method: 'recovery' }
    const recovered = await call('/api/v1/auth/mfa/verify', { body: recovery })
    expect(recovered.status).toBe(200)
    await expectSignedIn(recovered.body, who)
  }, 75_000)

  test('the personal access token lists the tickets, which keep their tags, status and comments', async () => {
    const auth = { apiKey: facts.pat.token }
    if (Date.now() >= Date.parse(facts.pat.expires_at)) {
      // The API allows a year at most: past it, the old token must still be recognised (and refused as expired).
      expect(await call('/api/v1/tickets', auth)).toMatchObject({ status: 401, body: { code: 'TOKEN_EXPIRED' } })
      console.warn(`upgrade.test: the fixture's personal access token expired on ${facts.pat.expires_at}; remake the fixture`)
      return
    }
    const listed = await listAll('/api/v1/tickets', 'tickets', auth)
    expect(listed.map((t) => t.id).sort()).toEqual(facts.tickets.map((t) => t.id).sort())
    for (const ticket of facts.tickets) {
      const got = await call(`/api/v1/tickets/${ticket.id}`, auth)
      expect(got.status).toBe(200)
      expect({ ...got.body, tags: (got.body.tags as string[]).toSorted() }).toMatchObject({
        id: ticket.id,
        number: ticket.number,
        status: ticket.status,
        tags: ticket.tags.toSorted(),
      })
      const comments = await listAll(`/api/v1/tickets/${ticket.id}/comments`, 'comments', auth)
      expect(comments.map((c) => c.id).sort()).toEqual(ticket.comment_ids.toSorted())
    }
    // The second organization's ticket stays its own.
    expect((await call(`/api/v1/tickets/${facts.second_organization.ticket.id}`, auth)).status).toBe(404)
  })

  test('the webhooks are listed with their subscriptions, and the deliveries of the old events with them', async () => {
    const signedIn = await login(facts.users.admin!)
    const auth = { token: signedIn.body.access_token as string }
    const hooks = await listAll('/api/v1/webhooks', 'webhooks', auth)
    expect(hooks.map((h) => h.id).sort()).toEqual([facts.webhook.id, facts.paused_webhook.id].sort())
    expect(hooks.find((h) => h.id === facts.webhook.id)).toMatchObject({
      url: facts.webhook.url,
      events: facts.webhook.events,
      enabled: true,
    })
    const paused = hooks.find((h) => h.id === facts.paused_webhook.id)
    expect(paused).toMatchObject({
      url: facts.paused_webhook.url,
      events: facts.paused_webhook.events,
      enabled: false,
      disabled_reason: 'manual',
    })

    const before = fromFixture<{ id: string; status: string }>(
      'SELECT id, status FROM webhook_deliveries WHERE webhook_id = ?',
      facts.webhook.id,
    )
    const listed = new Map((await listAll(`/api/v1/webhooks/${facts.webhook.id}/deliveries`, 'deliveries', auth)).map((d) => [d.id, d]))
    expect(before.length).toBeGreaterThan(0)
    for (const delivery of before) {
      expect(listed.get(delivery.id)).toBeDefined()
      // A finished attempt stays as it was; a pending one may have been sent since the start.
      if (delivery.status !== 'pending') expect(listed.get(delivery.id)).toMatchObject({ id: delivery.id, status: delivery.status })
    }
    expect([...listed.values()].some((d) => d.status === 'failed' && (d.error as Json | null)?.class === 'connect')).toBe(true)
  })

  test('it stops with 0, and its log names the migrations it applied: only those newer than the fixture', async () => {
    const { code, stdout, stderr } = await stopped()
    expect({ code, stderr }).toMatchObject({ code: 0 })
    const lines = `${stdout}\n${stderr}`
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Json)
    const applied = lines.filter((line) => line.msg === 'migrations applied').map((line) => line.applied)
    expect(applied).toEqual(EXPECTED_APPLIED.length > 0 ? [EXPECTED_APPLIED] : [])
    // The fixture's migrations are the same text as this build's: none reported as edited after landing.
    expect(lines.filter((line) => line.msg === 'migrations changed after they were applied')).toEqual([])
  })

  test('every table of the fixture keeps its rows', async () => {
    await stopped()
    const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true })
    try {
      db.run(`ATTACH DATABASE '${pristine}' AS fixture`)
      const count = (schema: string, table: string) =>
        db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${schema}."${table}"`).get()!.n
      const fixtureTables = db
        .query<{ name: string }, []>("SELECT name FROM fixture.sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => r.name)
      expect(fixtureTables.toSorted()).toEqual(Object.keys(facts.tables).sort())
      for (const table of fixtureTables) {
        expect({ table, rows: count('fixture', table) }).toEqual({ table, rows: facts.tables[table]! })
        if (NOT_DATA.has(table)) continue
        const rows = count('main', table)
        if (table === 'schema_migrations') expect(rows).toBe(facts.tables[table]! + EXPECTED_APPLIED.length)
        else if (MAY_GROW.has(table)) expect({ table, kept: rows >= facts.tables[table]! }).toEqual({ table, kept: true })
        else expect({ table, rows }).toEqual({ table, rows: facts.tables[table]! })
        // Not only as many rows: the same rows, by primary key.
        const key = db
          .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${table}', 'fixture') WHERE pk > 0 ORDER BY pk`)
          .all()
          .map((r) => `"${r.name}"`)
        const match = (key.length > 0 ? key : ['rowid']).map((column) => `n.${column} = o.${column}`).join(' AND ')
        const missing = `SELECT count(*) AS n FROM fixture."${table}" o WHERE NOT EXISTS (SELECT 1 FROM main."${table}" n WHERE ${match})`
        const lost = db.query<{ n: number }, []>(missing).get()!.n
        expect({ table, lost }).toEqual({ table, lost: 0 })
      }
    } finally {
      db.close()
    }
  })

  test('`switchboard audit verify` of this build finds every chain of the fixture intact', async () => {
    await stopped()
    const result = await run([binary, 'audit', 'verify'], { DATA_DIR: dataDir }, root)
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    const chains = fromFixture<{ chain: string | null; n: number }>(
      'SELECT organization_id AS chain, count(*) AS n FROM audit_logs GROUP BY 1',
    )
    expect(chains.length).toBe(3) // both organizations, and the installation's (the unknown e-mail's failed login)
    for (const { chain, n } of chains) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(`${chain ?? 'installation'}: `))
      const [, records, state] = /^\S+: (\d+) records, (.*)$/.exec(line ?? '') ?? []
      expect({ chain, state }).toEqual({ chain, state: 'intact' })
      expect(Number(records)).toBeGreaterThanOrEqual(n)
    }
    expect(result.stdout).toEndWith(': all intact\n')
  })
})
