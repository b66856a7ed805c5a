// RateLimiter (user, organization, endpoint, anonymous and login budgets), endpointLimitFor, the plan rates (PLAN_RATES as the plans table is seeded, ratesFromColumn, RATES_COLUMN over the plans table) and store.ts (saving and restoring the long windows on a real migrated database of the test engine).
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ENDPOINT_LIMITS, LOGIN_LIMIT, endpointLimitFor } from '../../../src/modules/rate-limits/endpoints.ts'
import {
  DAY_MS,
  MINUTE_MS,
  localRateCounters,
  type RateAnswer,
  RateLimiter,
  SAVED_WINDOW_MS,
  type RateOutcome,
} from '../../../src/modules/rate-limits/limiter.ts'
import { PLAN_RATES, RATES_COLUMN, ratesFromColumn, type Rates } from '../../../src/modules/rate-limits/plans.ts'
import { restoreRateCounters as restoreCounters, saveRateCounters as saveCounters } from '../../../src/modules/rate-limits/store.ts'
import type { Database } from '../../../src/db/database.ts'
import { openPostgres } from '../../../src/db/postgres.ts'
import { openSqlite } from '../../../src/db/sqlite.ts'
import { createOrganization } from '../../../src/modules/organizations/index.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'

const HOUR_MS = 60 * MINUTE_MS
/** The start of a day (so of an hour and a minute too). */
const D0 = 20_000 * DAY_MS

const limiter = (settings: { orgLimitFactor?: number; unauthPerMinute?: number } = {}) =>
  new RateLimiter({ enabled: true, orgLimitFactor: settings.orgLimitFactor ?? 5, unauthPerMinute: settings.unauthPerMinute ?? 60 })

const FREE: Rates = { perMinute: 60, perDay: 1_000 }
const REPORTS = endpointLimitFor('GET', '/api/v1/reports/:type')
const UPLOADS = endpointLimitFor('POST', '/api/v1/uploads')

/** The store saves and restores a limiter's counters (the rateCounters port, in memory). */
const local = (rl: RateLimiter) => localRateCounters(rl.windows) ?? expect.unreachable('the counters are in memory')
const saveRateCounters = (db: Database, rl: RateLimiter, now: number) => saveCounters(db, local(rl), now)
const restoreRateCounters = (db: Database, rl: RateLimiter, now: number) => restoreCounters(db, local(rl), now)

/** In memory the limiter answers at once, never with a promise (the one-process path costs no await). */
function sync(answer: RateAnswer): RateOutcome {
  if (answer instanceof Promise) throw new Error('the in-memory limiter answered with a promise')
  return answer
}

function ok(answer: RateAnswer) {
  const outcome = sync(answer)
  if (!outcome.ok) throw new Error(`expected an acceptance, got: ${outcome.message}`)
  return outcome.report
}

function no(answer: RateAnswer) {
  const outcome = sync(answer)
  if (outcome.ok) throw new Error(`expected a refusal, got remaining ${outcome.report.remaining}`)
  return outcome
}

describe('endpointLimitFor', () => {
  test('the declared limits', () => {
    expect(ENDPOINT_LIMITS).toEqual([
      {
        name: 'uploads',
        method: 'POST',
        path: '/api/v1/uploads',
        limit: 100,
        windowMs: HOUR_MS,
        per: 'organization',
        scope: 'requests per hour to POST /api/v1/uploads for this organization',
      },
      {
        name: 'reports',
        method: 'GET',
        path: '/api/v1/reports/*',
        limit: 10,
        windowMs: MINUTE_MS,
        per: 'user',
        scope: 'requests per minute to GET /api/v1/reports/* for this user',
      },
    ])
    expect(LOGIN_LIMIT).toEqual({ perIpPerMinute: 10, perEmailPerMinute: 10, windowMs: MINUTE_MS })
  })

  test.each([
    ['POST', '/api/v1/uploads', 'uploads'],
    ['GET', '/api/v1/uploads', undefined],
    ['POST', '/api/v1/uploads/:id', undefined],
    ['GET', '/api/v1/reports/tickets', 'reports'],
    ['GET', '/api/v1/reports/:type', 'reports'],
    ['GET', '/api/v1/reports/:type/export', 'reports'],
    ['GET', '/api/v1/reports', undefined],
    ['GET', '/api/v1/reports/', undefined],
    ['GET', '/api/v1/reportsx', undefined],
    ['POST', '/api/v1/reports/tickets', undefined],
    ['get', '/api/v1/reports/tickets', undefined],
    ['GET', '/api/v1/tickets', undefined],
    ['POST', '/api/v1/auth/login', undefined],
  ])('%s %s -> %s', (method, route, name) => {
    // Twice: the second answer comes from the per-route cache.
    expect(endpointLimitFor(method, route)?.name).toBe(name)
    expect(endpointLimitFor(method, route)?.name).toBe(name)
  })
})

describe('RateLimiter.user', () => {
  test('the 61st request of a Free user in a minute is refused, naming the per-minute user limit', () => {
    const rl = limiter()
    for (let i = 1; i <= 60; i++)
      expect(ok(rl.user('u1', 'o1', FREE, undefined, D0 + 7))).toEqual({
        limit: 60,
        remaining: 60 - i,
        resetAt: i < 60 ? D0 + 2 * MINUTE_MS : D0 + MINUTE_MS + 1,
      })
    const refused = no(rl.user('u1', 'o1', FREE, undefined, D0 + 7))
    expect(refused).toEqual({
      ok: false,
      message: 'Rate limit reached: 60 requests per minute for this user',
      retryAfterMs: MINUTE_MS + 1 - 7,
      report: { limit: 60, remaining: 0, resetAt: D0 + MINUTE_MS + 1 },
    })
    // Another user of the same organization is not affected.
    expect(ok(rl.user('u2', 'o1', FREE, undefined, D0 + 7)).remaining).toBe(59)
  })

  test('the daily quota: refused once spent, whatever the minute', () => {
    const rl = limiter()
    const rates = { perMinute: 60, perDay: 3 }
    expect(ok(rl.user('u1', 'o1', rates, undefined, D0))).toEqual({ limit: 3, remaining: 2, resetAt: D0 + 2 * DAY_MS })
    ok(rl.user('u1', 'o1', rates, undefined, D0 + HOUR_MS))
    expect(ok(rl.user('u1', 'o1', rates, undefined, D0 + 2 * HOUR_MS))).toEqual({ limit: 3, remaining: 0, resetAt: D0 + DAY_MS + 1 })
    const refused = no(rl.user('u1', 'o1', rates, undefined, D0 + 3 * HOUR_MS))
    expect(refused.message).toBe('Rate limit reached: 3 requests per day for this user')
    expect(refused.retryAfterMs).toBe(DAY_MS - 3 * HOUR_MS + 1)
  })

  test('reports: 10 a minute per user; the 11th is refused with a message naming it; the refused one is not counted elsewhere', () => {
    const rl = limiter()
    for (let i = 1; i <= 10; i++)
      expect(ok(rl.user('u1', 'o1', FREE, REPORTS, D0))).toEqual({
        limit: 10,
        remaining: 10 - i,
        resetAt: i < 10 ? D0 + 2 * MINUTE_MS : D0 + MINUTE_MS + 1,
      })
    const refused = no(rl.user('u1', 'o1', FREE, REPORTS, D0 + 1_000))
    expect(refused.message).toBe('Rate limit reached: 10 requests per minute to GET /api/v1/reports/* for this user')
    expect(refused.retryAfterMs).toBe(MINUTE_MS - 1_000 + 1)
    // Other routes still pass: the 10 reports counted against the user's minute, the refusal did not.
    expect(ok(rl.user('u1', 'o1', FREE, undefined, D0 + 1_000))).toEqual({ limit: 60, remaining: 49, resetAt: D0 + 2 * MINUTE_MS })
    // Another user has their own reports budget.
    expect(ok(rl.user('u2', 'o1', FREE, REPORTS, D0 + 1_000)).remaining).toBe(9)
  })

  test('uploads: 100 an hour per organization, whichever of its users uploads', () => {
    const rl = limiter()
    const rates = { perMinute: 1_000, perDay: 100_000 }
    for (let i = 0; i < 100; i++) ok(rl.user(i % 2 ? 'u1' : 'u2', 'o1', rates, UPLOADS, D0 + i * 30_000))
    const refused = no(rl.user('u3', 'o1', rates, UPLOADS, D0 + 50 * MINUTE_MS))
    expect(refused.message).toBe('Rate limit reached: 100 requests per hour to POST /api/v1/uploads for this organization')
    expect(refused.report.limit).toBe(100)
    // Another organization has its own hundred; a user id equal to an organization id counts nothing of it.
    expect(ok(rl.user('u1', 'o2', rates, UPLOADS, D0 + 50 * MINUTE_MS)).remaining).toBe(99)
    expect(ok(rl.user('o1', 'o3', rates, REPORTS, D0 + 50 * MINUTE_MS)).remaining).toBe(9)
  })

  test('the organization: all its users together get the plan rates times the factor', () => {
    const rl = limiter({ orgLimitFactor: 2 })
    const rates = { perMinute: 3, perDay: 1_000 }
    for (const user of ['a', 'b']) for (let i = 0; i < 3; i++) ok(rl.user(user, 'o1', rates, undefined, D0))
    const refused = no(rl.user('c', 'o1', rates, undefined, D0))
    expect(refused.message).toBe('Rate limit reached: 6 requests per minute for this organization')
    expect(refused.report).toEqual({ limit: 6, remaining: 0, resetAt: D0 + MINUTE_MS + 1 })
    // A user at their own limit is refused by it first (the user checks come first).
    expect(no(rl.user('a', 'o1', rates, undefined, D0)).message).toBe('Rate limit reached: 3 requests per minute for this user')
    // Another organization is not affected.
    expect(ok(rl.user('c', 'o2', rates, undefined, D0)).remaining).toBe(2)
  })

  test('the organization daily budget, and its report when it is the most constraining window', () => {
    const rl = limiter({ orgLimitFactor: 1 })
    const rates = { perMinute: 100, perDay: 5 }
    for (let i = 0; i < 3; i++) ok(rl.user('a', 'o1', rates, undefined, D0))
    expect(ok(rl.user('b', 'o1', rates, undefined, D0))).toEqual({ limit: 5, remaining: 1, resetAt: D0 + 2 * DAY_MS })
    expect(ok(rl.user('b', 'o1', rates, undefined, D0))).toEqual({ limit: 5, remaining: 0, resetAt: D0 + DAY_MS + 1 })
    expect(no(rl.user('b', 'o1', rates, undefined, D0 + MINUTE_MS)).message).toBe(
      'Rate limit reached: 5 requests per day for this organization',
    )
  })

  test('a refusal by the organization does not count against the user', () => {
    const rl = limiter({ orgLimitFactor: 1 })
    const rates = { perMinute: 2, perDay: 1_000 }
    ok(rl.user('a', 'o1', rates, undefined, D0))
    ok(rl.user('a', 'o1', rates, undefined, D0))
    for (let i = 0; i < 5; i++) no(rl.user('b', 'o1', rates, undefined, D0))
    // In another organization (same user id, as after a move), b's own minute is untouched.
    expect(ok(rl.user('b', 'o2', rates, undefined, D0)).remaining).toBe(1)
  })
})

describe('RateLimiter.anonymous', () => {
  // [first address, second address, do they share one budget]
  const pairs: [string | null, string | null, boolean][] = [
    ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', true],
    ['2001:db8:1:2::1', '2001:DB8:0001:0002:0:0:0:7', true],
    ['2001:db8:1:2::1', '2001:db8:1:3::1', false],
    ['2001:db8:1:2::1', '2001:db9:1:2::1', false],
    ['192.0.2.1', '192.0.2.1', true],
    ['192.0.2.1', '192.0.2.2', false],
    ['10.0.0.1', '10.0.0.1', true],
    [null, null, true],
    [null, '192.0.2.1', false],
    ['192.0.2.1', null, false],
  ]

  test.each(pairs)('%s then %s: shared %p', (first, second, shared) => {
    const rl = limiter({ unauthPerMinute: 3 })
    expect([1, 2, 3].map(() => ok(rl.anonymous(first, D0)).remaining)).toEqual([2, 1, 0])
    const outcome = sync(rl.anonymous(second, D0))
    expect(outcome.ok).toBe(!shared)
    if (!outcome.ok) expect(outcome.message).toBe('Rate limit reached: 3 unauthenticated requests per minute from this address')
  })

  test('the limit is the configured one, and the budget slides', () => {
    const rl = limiter({ unauthPerMinute: 60 })
    for (let i = 0; i < 60; i++) ok(rl.anonymous('192.0.2.1', D0))
    const refused = no(rl.anonymous('192.0.2.1', D0 + 30_000))
    expect(refused.report).toEqual({ limit: 60, remaining: 0, resetAt: D0 + MINUTE_MS + 1 })
    // Half-way through the next minute the 60 weigh 30: 30 pass.
    for (let i = 0; i < 30; i++) ok(rl.anonymous('192.0.2.1', D0 + 90_000))
    no(rl.anonymous('192.0.2.1', D0 + 90_000))
  })

  test('anonymous and authenticated budgets are separate', () => {
    const rl = limiter({ unauthPerMinute: 1 })
    ok(rl.anonymous('192.0.2.1', D0))
    no(rl.anonymous('192.0.2.1', D0))
    expect(ok(rl.user('192.0.2.1', 'o1', FREE, undefined, D0)).remaining).toBe(59)
  })
})

describe('RateLimiter.login', () => {
  test('10 attempts a minute per address: the 11th from it is refused whatever the e-mail', () => {
    const rl = limiter()
    for (let i = 0; i < 10; i++) ok(rl.login('192.0.2.1', `user${i}@example.com`, D0))
    const refused = no(rl.login('192.0.2.1', 'other@example.com', D0))
    expect(refused.message).toBe('Rate limit reached: 10 login attempts per minute from this address')
    expect(refused.report.limit).toBe(10)
    // Another address in the same IPv6 /64 shares the budget; a different IPv4 address does not.
    for (let i = 0; i < 10; i++) ok(rl.login('2001:db8:1:2::1', `v6-${i}@example.com`, D0))
    expect(no(rl.login('2001:db8:1:2::bad', 'v6@example.com', D0)).message).toBe(
      'Rate limit reached: 10 login attempts per minute from this address',
    )
    ok(rl.login('192.0.2.2', 'other@example.com', D0))
  })

  test('10 attempts a minute per e-mail: the 11th for it is refused whatever the address', () => {
    const rl = limiter()
    for (let i = 0; i < 10; i++) ok(rl.login(`192.0.2.${i}`, 'victim@example.com', D0))
    const refused = no(rl.login('198.51.100.1', 'victim@example.com', D0))
    expect(refused.message).toBe('Rate limit reached: 10 login attempts per minute for this e-mail address')
    // The refused attempt was not counted against 198.51.100.1.
    expect(ok(rl.login('198.51.100.1', 'someone@example.com', D0)).remaining).toBe(9)
  })

  test('a refusal by the address does not count against the e-mail; login and anonymous budgets are separate', () => {
    const rl = limiter({ unauthPerMinute: 5 })
    for (let i = 0; i < 10; i++) ok(rl.login('192.0.2.1', `user${i}@example.com`, D0))
    for (let i = 0; i < 20; i++) no(rl.login('192.0.2.1', 'target@example.com', D0))
    expect(ok(rl.login('192.0.2.9', 'target@example.com', D0)).remaining).toBe(9)
    expect(ok(rl.anonymous('192.0.2.1', D0)).remaining).toBe(4)
  })

  test('an unknown address (null) is one address of its own', () => {
    const rl = limiter()
    for (let i = 0; i < 10; i++) ok(rl.login(null, `user${i}@example.com`, D0))
    no(rl.login(null, 'x@example.com', D0))
    ok(rl.login('192.0.2.1', 'x@example.com', D0))
  })
})

describe('plan rates', () => {
  const apps: TestApp[] = []
  afterAll(async () => Promise.all(apps.map((a) => a.close())))

  test("PLAN_RATES are the spec's, and the rates the migration seeds the plans table with (on the test engine)", async () => {
    expect(PLAN_RATES).toEqual({
      free: { perMinute: 60, perDay: 1_000 },
      starter: { perMinute: 300, perDay: 10_000 },
      professional: { perMinute: 1_000, perDay: 100_000 },
      enterprise: { perMinute: 1_000, perDay: 100_000 },
    })
    const app = await makeTestApp()
    apps.push(app)
    const rows = await app.context.db.raw.all<{ id: string; rate_limit_per_minute: number; rate_limit_per_day: number }>(
      'SELECT id, rate_limit_per_minute, rate_limit_per_day FROM plans',
    )
    expect(
      Object.fromEntries(rows.map((r) => [r.id, { perMinute: Number(r.rate_limit_per_minute), perDay: Number(r.rate_limit_per_day) }])),
    ).toEqual(PLAN_RATES)
  })

  test.each([
    ['60/1000', 60, 1_000],
    ['300/10000', 300, 10_000],
    ['5000/9000000', 5_000, 9_000_000],
    ['1/1', 1, 1],
    // No plan row (never the case: the four are seeded): Free's seeded rates.
    [null, 60, 1_000],
    ['', 60, 1_000],
    ['/', 60, 1_000],
    ['x/1', 60, 1_000],
  ])('ratesFromColumn(%p) = %p a minute, %p a day', (text, m, d) => {
    const rates = ratesFromColumn(text)
    expect(rates).toEqual({ perMinute: m, perDay: d })
    expect(Object.isFrozen(rates)).toBe(true)
    expect(ratesFromColumn(text)).toBe(rates)
  })

  test("RATES_COLUMN on the test engine: the organization's own rates, else its plan row's, read at once after any change", async () => {
    const app = await makeTestApp()
    apps.push(app)
    const db = app.context.db
    const now = app.clock.now()
    const org = await db.write('test.org', (tx) => createOrganization(tx, { name: 'R', plan: 'starter' }, now))
    const column = async () =>
      (await db.raw.get<{ r: string | null }>(`SELECT ${RATES_COLUMN} AS r FROM organizations WHERE id = ?`, [org.id]))!.r
    expect(await column()).toBe('300/10000')
    await db.raw.run('UPDATE organizations SET rate_limit_per_minute = 5000 WHERE id = ?', [org.id])
    expect(await column()).toBe('5000/10000')
    await db.raw.run("UPDATE plans SET rate_limit_per_day = 77 WHERE id = 'starter'")
    expect(await column()).toBe('5000/77')
    await db.raw.run('UPDATE organizations SET rate_limit_per_minute = NULL, rate_limit_per_day = 100000000 WHERE id = ?', [org.id])
    expect(await column()).toBe('300/100000000')
    await db.raw.run("UPDATE organizations SET plan = 'enterprise', rate_limit_per_day = NULL WHERE id = ?", [org.id])
    expect(ratesFromColumn(await column())).toEqual({ perMinute: 1_000, perDay: 100_000 })
  })
})

describe('store: saving and restoring the long windows', () => {
  const apps: TestApp[] = []
  afterAll(async () => Promise.all(apps.map((a) => a.close())))

  /**
   * A fresh connection to a freshly migrated database (no statement cached on it yet), on the test
   * engine: in-memory counters are saved to SQLite in embedded mode, to PostgreSQL without Redis.
   */
  async function database(): Promise<{ app: TestApp; db: Database; reopen(): Database }> {
    const made = await makeTestApp()
    apps.push(made)
    const url = made.context.config.databaseUrl
    const reopen = () => (url === undefined ? openSqlite(join(made.dataDir, 'switchboard.db')) : openPostgres(url, { max: 1 }))
    return { app: made, db: reopen(), reopen }
  }

  interface SavedRow {
    key: string
    window_ms: number
    window_start: number
    current: number
    previous: number
    updated_at: number
  }
  // Numbers, as PostgreSQL hands BIGINT columns back otherwise.
  const rows = async (db: Database) =>
    (
      await db.raw.all<SavedRow>('SELECT key, window_ms, window_start, current, previous, updated_at FROM rate_limit_counters ORDER BY key')
    ).map((row) => ({
      key: row.key,
      window_ms: Number(row.window_ms),
      window_start: Number(row.window_start),
      current: Number(row.current),
      previous: Number(row.previous),
      updated_at: Number(row.updated_at),
    }))

  const T = D0 + 3 * HOUR_MS + 5 * MINUTE_MS
  const rates = { perMinute: 60, perDay: 5 }

  /** 3 uploads by u1 of o1 at T: its minute and day windows, and o1's minute, day and upload windows. */
  function counted() {
    const rl = limiter({ orgLimitFactor: 2 })
    for (let i = 0; i < 3; i++) ok(rl.user('u1', 'o1', rates, UPLOADS, T))
    return rl
  }

  test('only windows of an hour or more are saved', () => {
    expect(SAVED_WINDOW_MS).toBe(HOUR_MS)
  })

  test('save then restore into a fresh limiter on the same database keeps the daily and hourly counts, not the minute ones', async () => {
    const { db } = await database()
    const rl = counted()
    expect(await saveRateCounters(db, rl, T + 10)).toEqual({ saved: 3, deleted: 0 })
    expect(await rows(db)).toEqual([
      { key: 'eo:uploads:o1', window_ms: HOUR_MS, window_start: D0 + 3 * HOUR_MS, current: 3, previous: 0, updated_at: T + 10 },
      { key: 'o:o1:d', window_ms: DAY_MS, window_start: D0, current: 3, previous: 0, updated_at: T + 10 },
      { key: 'u:u1:d', window_ms: DAY_MS, window_start: D0, current: 3, previous: 0, updated_at: T + 10 },
    ])
    // Nothing counted since: nothing to save.
    expect(await saveRateCounters(db, rl, T + 20)).toEqual({ saved: 0, deleted: 0 })

    // "Restart" an hour later.
    const after = limiter({ orgLimitFactor: 2 })
    expect(await restoreRateCounters(db, after, T + HOUR_MS)).toBe(3)
    expect(local(after).size).toBe(3)
    // The day's 3 still count: 2 left of 5; the minute is fresh.
    expect(ok(after.user('u1', 'o1', rates, undefined, T + HOUR_MS))).toEqual({ limit: 5, remaining: 1, resetAt: D0 + 2 * DAY_MS })
    expect(ok(after.user('u1', 'o1', rates, undefined, T + HOUR_MS))).toEqual({ limit: 5, remaining: 0, resetAt: D0 + DAY_MS + 1 })
    expect(no(after.user('u1', 'o1', rates, undefined, T + HOUR_MS)).message).toBe('Rate limit reached: 5 requests per day for this user')
    // The organization's day (limit 10) holds 5; another user of it has their own 5.
    expect(ok(after.user('u2', 'o1', rates, undefined, T + HOUR_MS)).remaining).toBe(4)
    // Restored windows are not dirty; the ones counted since are.
    expect((await saveRateCounters(db, after, T + HOUR_MS)).saved).toBe(3)
    expect((await rows(db)).map((r) => [r.key, r.current])).toEqual([
      ['eo:uploads:o1', 3],
      ['o:o1:d', 6],
      ['u:u1:d', 5],
      ['u:u2:d', 1],
    ])
    await db.close()
  })

  test('the minute windows start afresh after a restore', async () => {
    const { db } = await database()
    const rl = limiter()
    for (let i = 0; i < 60; i++) ok(rl.user('u1', 'o1', FREE, undefined, T))
    no(rl.user('u1', 'o1', FREE, undefined, T))
    await saveRateCounters(db, rl, T)
    const after = limiter()
    expect(await restoreRateCounters(db, after, T + 1)).toBe(2)
    expect(ok(after.user('u1', 'o1', FREE, undefined, T + 1))).toEqual({ limit: 60, remaining: 59, resetAt: T + 2 * MINUTE_MS })
    await db.close()
  })

  test('rows whose windows no longer count are deleted by the save, and never restored', async () => {
    const { db } = await database()
    expect((await saveRateCounters(db, counted(), T)).saved).toBe(3)
    // The upload hour (started D0 + 3 h) stops counting at D0 + 5 h; the days at D0 + 2 days.
    expect(await restoreRateCounters(db, limiter(), D0 + 5 * HOUR_MS - 1)).toBe(3)
    expect(await restoreRateCounters(db, limiter(), D0 + 5 * HOUR_MS)).toBe(2)
    const idle = limiter()
    expect(await saveRateCounters(db, idle, D0 + 5 * HOUR_MS - 1)).toEqual({ saved: 0, deleted: 0 })
    expect(await saveRateCounters(db, idle, D0 + 5 * HOUR_MS)).toEqual({ saved: 0, deleted: 1 })
    expect((await rows(db)).map((r) => r.key)).toEqual(['o:o1:d', 'u:u1:d'])
    expect(await saveRateCounters(db, idle, D0 + 2 * DAY_MS - 1)).toEqual({ saved: 0, deleted: 0 })
    expect(await restoreRateCounters(db, limiter(), D0 + 2 * DAY_MS)).toBe(0)
    expect(await saveRateCounters(db, idle, D0 + 2 * DAY_MS)).toEqual({ saved: 0, deleted: 2 })
    expect(await rows(db)).toEqual([])
    await db.close()
  })

  test('the previous window is saved and restored too', async () => {
    const { db } = await database()
    const rl = limiter()
    const r = { perMinute: 1_000, perDay: 10 }
    for (let i = 0; i < 10; i++) ok(rl.user('u1', 'o1', r, undefined, D0 + i))
    // Next day, half-way: yesterday's 10 weigh 5.
    for (let i = 0; i < 2; i++) ok(rl.user('u1', 'o1', r, undefined, D0 + DAY_MS + DAY_MS / 2))
    await saveRateCounters(db, rl, D0 + DAY_MS + DAY_MS / 2)
    expect((await rows(db)).find((row) => row.key === 'u:u1:d')).toMatchObject({ window_start: D0 + DAY_MS, current: 2, previous: 10 })
    const after = limiter()
    await restoreRateCounters(db, after, D0 + DAY_MS + DAY_MS / 2)
    for (let i = 0; i < 3; i++) ok(after.user('u1', 'o1', r, undefined, D0 + DAY_MS + DAY_MS / 2))
    no(after.user('u1', 'o1', r, undefined, D0 + DAY_MS + DAY_MS / 2))
    await db.close()
  })

  // A save that fails must leave the counters dirty, so the next save writes them.
  const failures: [string, (db: Database, reopen: () => Database) => Promise<{ failing: Database; repair(): Promise<unknown> }>][] = [
    [
      'a trigger refuses the write',
      async (db) => {
        if (db.engine === 'sqlite') {
          await db.raw.run("CREATE TRIGGER refuse BEFORE INSERT ON rate_limit_counters BEGIN SELECT RAISE(ABORT, 'refused'); END")
          return { failing: db, repair: () => db.raw.run('DROP TRIGGER refuse') }
        }
        await db.raw.run("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql")
        await db.raw.run('CREATE TRIGGER refuse BEFORE INSERT ON rate_limit_counters FOR EACH ROW EXECUTE FUNCTION refuse()')
        return { failing: db, repair: () => db.raw.run('DROP TRIGGER refuse ON rate_limit_counters') }
      },
    ],
    [
      'the table is missing',
      async (db) => {
        await db.raw.run('ALTER TABLE rate_limit_counters RENAME TO rate_limit_counters_away')
        return { failing: db, repair: () => db.raw.run('ALTER TABLE rate_limit_counters_away RENAME TO rate_limit_counters') }
      },
    ],
    [
      'the database connection is closed',
      async (_, reopen) => {
        const closed = reopen()
        await closed.close()
        return { failing: closed, repair: async () => {} }
      },
    ],
  ]

  test.each(failures)('a failed save (%s) throws and marks the counters dirty again', async (_, breakIt) => {
    const { db, reopen } = await database()
    const rl = counted()
    const { failing, repair } = await breakIt(db, reopen)
    await expect(saveRateCounters(failing, rl, T)).rejects.toThrow()
    await repair()
    expect(await rows(db)).toEqual([])
    expect(await saveRateCounters(db, rl, T + 1)).toEqual({ saved: 3, deleted: 0 })
    expect((await rows(db)).map((r) => [r.key, r.current])).toEqual([
      ['eo:uploads:o1', 3],
      ['o:o1:d', 3],
      ['u:u1:d', 3],
    ])
    await db.close()
  })

  test('the cron sequence (save, then sweep) drops idle minute windows: memory does not fill with anonymous addresses', async () => {
    const { db } = await database()
    const rl = limiter()
    ok(rl.user('u1', 'o1', FREE, undefined, T))
    for (let i = 0; i < 100; i++) ok(rl.anonymous(`192.0.2.${i}`, T))
    expect(local(rl).size).toBe(104)
    // As rate_limit_save does every 10 s: save, then sweep. Two minutes later every minute window is idle.
    await saveRateCounters(db, rl, T + 10_000)
    local(rl).sweep(T + 10_000)
    await saveRateCounters(db, rl, T + 2 * MINUTE_MS)
    local(rl).sweep(T + 2 * MINUTE_MS)
    // Left: the user's and the organization's day windows.
    expect(local(rl).size).toBe(2)
    await db.close()
  })

  test("many anonymous addresses over a few minutes do not evict a user's spent daily quota", async () => {
    const { db } = await database()
    const rl = limiter()
    const r = { perMinute: 60, perDay: 5 }
    for (let i = 0; i < 5; i++) ok(rl.user('u1', 'o1', r, undefined, T))
    no(rl.user('u1', 'o1', r, undefined, T))
    // 700 new addresses a second for 5 minutes (210 000 in all), with the cron's save and sweep every 10 s:
    // at most ~3 minutes of them (126 000) count at once, under MAX_KEYS (200 000).
    let lastCron = T
    for (let i = 0; i < 210_000; i++) {
      const now = T + Math.floor(i / 700) * 1_000
      if (now - lastCron >= 10_000) {
        await saveRateCounters(db, rl, now)
        local(rl).sweep(now)
        lastCron = now
      }
      rl.anonymous(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, now)
    }
    expect(no(rl.user('u1', 'o1', r, undefined, T + 5 * MINUTE_MS)).message).toBe('Rate limit reached: 5 requests per day for this user')
    await db.close()
  })
})
