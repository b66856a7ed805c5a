// GET /health (liveness + cron state) and GET /ready (database takes a write), both public.
import { afterAll, describe, expect, test } from 'bun:test'
import type { Database } from '../../../src/db/database.ts'
import { HIDDEN_ERROR, READY_WRITE_INTERVAL_MS, readinessProbe } from '../../../src/modules/system/service.ts'
import { READY_PER_MINUTE } from '../../../src/modules/system/index.ts'
import { VERSION } from '../../../src/version.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { postgresServer, TEST_ENGINE } from '../../helpers/engine.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

describe('GET /health', () => {
  test('reports status, version, uptime and every cron task, without authentication', async () => {
    // A tick (nothing is due yet): among peers (the PostgreSQL + Redis run) it takes the cron leadership.
    await app.context.scheduler.tick()
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    const task = (nextRunInMs: number, scope: 'cluster' | 'instance' = 'cluster') => ({
      last_run_at: null,
      last_duration_ms: null,
      last_error: null,
      last_failure_at: null,
      runs: 0,
      failures: 0,
      next_run_at: new Date(app.context.startedAt + nextRunInMs).toISOString(),
      ran_by: null,
      scope,
    })
    expect(await json(response)).toEqual({
      status: 'ok',
      version: VERSION,
      uptime_s: 0,
      instance: app.config.instanceId,
      cron_leader: true,
      // With REDIS_URL (the PostgreSQL + Redis run) /health says whether Redis answers.
      ...(app.config.redisUrl ? { redis: 'ok' } : {}),
      cron: {
        db_maintenance: task(3_600_000),
        auth_cleanup: task(300_000),
        mfa_cleanup: task(300_000),
        revocations_prune: task(300_000, 'instance'),
        oauth_cleanup: task(300_000),
        ticket_auto_close: task(600_000),
        idempotency_cleanup: task(900_000),
        upload_expiry: task(60_000),
        recording_processing: task(10_000),
        recording_retention: task(10_000),
        agent_idle_logout: task(60_000),
        billing_renewals: task(60_000),
        billing_dunning: task(60_000),
        billing_incomplete_expiry: task(60_000),
        engagement_snooze_wake: task(60_000),
        engagement_auto_close: task(60_000),
        survey_expiry: task(60_000),
        reports_fold: task(10_000),
        webhook_dispatch: task(1000, 'instance'),
        webhook_prune: task(3_600_000),
      },
    })
  })

  test('uptime follows the clock; a cron run shows up with its time and duration', async () => {
    app.clock.advance(3_600_000)
    await app.context.scheduler.tick()
    const body = await json<{ uptime_s: number; cron: Record<string, Record<string, unknown>> }>(await app.request('/health'))
    expect(body.uptime_s).toBe(3600)
    expect(body.cron.db_maintenance).toMatchObject({
      last_run_at: new Date(app.clock.now()).toISOString(),
      last_error: null,
      runs: 1,
      failures: 0,
    })
    expect(body.cron.db_maintenance!.last_duration_ms).toBeGreaterThanOrEqual(0)
  })

  test('is "degraded" while a task\'s last run failed: everyone sees that and when, only a Super Admin sees why', async () => {
    let fail = true
    app.context.scheduler.register({
      name: 'flaky',
      intervalMs: 1000,
      run() {
        if (fail) throw new Error('SQLITE_IOERR at /srv/secret/path/switchboard.db')
      },
    })
    app.clock.advance(1000)
    await app.context.scheduler.tick()
    const failedAt = new Date(app.clock.now()).toISOString()
    type Health = { status: string; cron: Record<string, Record<string, unknown>> }
    const health = async (headers: Record<string, string> = {}) => {
      const response = await app.request('/health', { headers })
      expect(response.status).toBe(200)
      return json<Health>(response)
    }

    const hidden = { last_error: HIDDEN_ERROR, last_failure_at: failedAt, last_run_at: failedAt, runs: 1, failures: 1 }
    // No credential, a wrong or expired one, and users who are not Super Admins: the fact, not the text.
    const anonymous = await health()
    expect(anonymous.status).toBe('degraded')
    expect(anonymous.cron.flaky).toEqual({
      ...hidden,
      ran_by: app.config.instanceId,
      scope: 'cluster',
      last_duration_ms: anonymous.cron.flaky!.last_duration_ms,
      next_run_at: anonymous.cron.flaky!.next_run_at,
    })
    expect(JSON.stringify(anonymous)).not.toContain('SQLITE_IOERR')
    // Signed in now: the seeded tokens have expired on this clock.
    const [superAdmin, admin, agent, viewer] = await Promise.all(
      [users.super_admin, users.admin, users.agent, users.viewer].map((u) => signIn(app, u.user)),
    )
    for (const headers of [
      { authorization: 'Bearer not-a-token' },
      { 'x-api-key': 'pat_live_nope' },
      users.super_admin.auth,
      admin!.auth,
      agent!.auth,
      viewer!.auth,
    ]) {
      const body = await health(headers)
      expect(body.status).toBe('degraded')
      expect(body.cron.flaky).toMatchObject(hidden)
    }
    // A Super Admin, by access token and by personal access token, sees the message.
    expect((await health(superAdmin!.auth)).cron.flaky).toMatchObject({
      ...hidden,
      last_error: 'SQLITE_IOERR at /srv/secret/path/switchboard.db',
    })
    const created = await app.request('/api/v1/api-keys', {
      method: 'POST',
      headers: { ...superAdmin!.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'monitoring', expires_at: new Date(app.clock.now() + 30 * 86_400_000).toISOString() }),
    })
    expect(created.status).toBe(201)
    const pat = (await json<{ token: string }>(created)).token
    expect((await health({ 'x-api-key': pat })).cron.flaky!.last_error).toBe('SQLITE_IOERR at /srv/secret/path/switchboard.db')
    expect((await health({ authorization: `Bearer ${pat}` })).cron.flaky!.last_error).toBe(
      'SQLITE_IOERR at /srv/secret/path/switchboard.db',
    )

    fail = false
    app.clock.advance(1000)
    await app.context.scheduler.tick()
    const body = await health()
    expect(body.status).toBe('ok')
    // The last failure is still dated after a success.
    expect(body.cron.flaky).toMatchObject({ last_error: null, last_failure_at: failedAt, runs: 2, failures: 1 })
  })

  test('answers HEAD with headers only', async () => {
    const response = await app.request('/health', { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })
})

describe('GET /ready', () => {
  test('200 when the database takes a write, and the write really happens', async () => {
    const response = await app.request('/ready')
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual(app.config.redisUrl ? { status: 'ready', redis: 'ok' } : { status: 'ready' })
    const row = await app.context.db.raw.get("SELECT value, updated_at FROM system_kv WHERE key = 'ready_probe'")
    expect(row).toEqual({ value: String(app.clock.now()), updated_at: app.clock.now() })
  })

  test('at most one write a second, however many calls: a success answers for the calls of the next second', async () => {
    app.clock.advance(READY_WRITE_INTERVAL_MS)
    const wroteAt = app.clock.now()
    expect((await app.request('/ready')).status).toBe(200)
    const written = async () =>
      (await app.context.db.raw.get<{ updated_at: number }>("SELECT updated_at FROM system_kv WHERE key = 'ready_probe'"))!.updated_at
    expect(await written()).toBe(wroteAt)
    app.clock.advance(READY_WRITE_INTERVAL_MS - 1)
    for (let i = 0; i < 5; i++) expect((await app.request('/ready')).status).toBe(200)
    expect(await written()).toBe(wroteAt)
    app.clock.advance(1)
    expect((await app.request('/ready')).status).toBe(200)
    expect(await written()).toBe(app.clock.now())
  })

  test('calls that arrive while the write is under way share it; a failure is not remembered', async () => {
    let writes = 0
    let fail = false
    const db = {
      async write() {
        writes++
        await Bun.sleep(5)
        if (fail) throw new Error('disk full')
      },
    } as unknown as Database
    const probe = readinessProbe(db)
    expect(await Promise.all([probe(10_000), probe(10_000), probe(10_000)])).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(writes).toBe(1)
    fail = true
    const failed = await Promise.all([probe(20_000), probe(20_000)])
    expect(failed).toEqual([
      { ok: false, reason: 'disk full' },
      { ok: false, reason: 'disk full' },
    ])
    expect(writes).toBe(2)
    fail = false
    expect(await probe(20_001)).toEqual({ ok: true })
    expect(writes).toBe(3)
  })

  /**
   * Makes the database refuse writes, or take them again: SQLite's query_only on the app's connection;
   * on PostgreSQL the server's default_transaction_read_only, which every open connection takes up on a
   * configuration reload (as a server made read-only by its operator would behave).
   */
  async function refuseWrites(refuse: boolean): Promise<void> {
    if (TEST_ENGINE === 'sqlite') {
      await app.context.db.raw.run(`PRAGMA query_only = ${refuse ? 'ON' : 'OFF'}`)
      return
    }
    const server = await postgresServer()
    const admin = new Bun.SQL(server.url('postgres'), { max: 1 })
    try {
      // Its own session stays writable whatever the server's default becomes.
      await admin.unsafe('SET default_transaction_read_only = off')
      await admin.unsafe(
        refuse ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only',
      )
      await admin.unsafe('SELECT pg_reload_conf()')
    } finally {
      await admin.close()
    }
    const wanted = refuse ? 'on' : 'off'
    const seen = async () =>
      (await app.context.db.raw.get<{ v: string }>("SELECT current_setting('default_transaction_read_only') AS v"))!.v
    for (const deadline = Date.now() + 20_000; (await seen()) !== wanted && Date.now() < deadline; ) await Bun.sleep(20)
    // Every backend was signalled at once; give the app's other pooled connections a moment to read theirs.
    await Bun.sleep(100)
  }

  test('503 while the database refuses writes, 200 again once it accepts them', async () => {
    // Past the second in which the last write answers for /ready.
    app.clock.advance(READY_WRITE_INTERVAL_MS)
    await refuseWrites(true)
    try {
      const response = await app.request('/ready')
      expect(response.status).toBe(503)
      expect(await json(response)).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database does not accept writes',
        request_id: response.headers.get('x-request-id'),
      })
      const warning = app.logs.records().find((r) => r.msg === 'not ready')
      // SQLite: "attempt to write a readonly database"; PostgreSQL: "cannot execute INSERT in a read-only transaction".
      expect(warning?.reason).toContain(TEST_ENGINE === 'sqlite' ? 'readonly' : 'read-only')
      expect(warning?.request_id).toBe(response.headers.get('x-request-id'))
      // Liveness is not readiness: /health still answers.
      expect((await app.request('/health')).status).toBe(200)
    } finally {
      await refuseWrites(false)
    }
    expect((await app.request('/ready')).status).toBe(200)
  })
})

describe('GET /ready, rate-limited per address', () => {
  test(`${READY_PER_MINUTE} calls a minute from one address, then 429 in the spec's shape with Retry-After; no X-RateLimit-* headers, and other budgets untouched`, async () => {
    const limited = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
    try {
      const before = await limited.request('/openapi.json')
      const remainingBefore = Number(before.headers.get('x-ratelimit-remaining'))
      for (let i = 0; i < READY_PER_MINUTE; i++) {
        const response = await limited.request('/ready')
        expect(response.status).toBe(200)
        expect(response.headers.get('x-ratelimit-limit')).toBeNull()
      }
      const refused = await limited.request('/ready')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(refused.headers.get('x-ratelimit-limit')).toBeNull()
      const body = await json<Record<string, unknown>>(refused)
      expect(body).toEqual({
        code: 429,
        message: `Rate limit reached: ${READY_PER_MINUTE} readiness checks per minute from this address`,
        retry_after: Number(refused.headers.get('retry-after')),
        error: 'RATE_LIMITED',
      })
      // /health still answers, and the address's ordinary budget was not spent by /ready.
      expect((await limited.request('/health')).status).toBe(200)
      const after = await limited.request('/openapi.json')
      expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remainingBefore - 1)
      // The budget comes back as the window slides.
      limited.clock.advance(2 * 60_000)
      expect((await limited.request('/ready')).status).toBe(200)
    } finally {
      await limited.close()
    }
  })

  test('each client address has its own budget (a real server behind a trusted proxy)', async () => {
    const limited = await makeTestApp({ RATE_LIMITS_ENABLED: 'true', TRUSTED_PROXIES: '127.0.0.1' })
    limited.app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const port = limited.app.server!.port
      const ready = (client: string) =>
        fetch(`http://127.0.0.1:${port}/ready`, { headers: { 'x-forwarded-for': client } }).then((r) => r.status)
      for (let i = 0; i < READY_PER_MINUTE; i++) expect(await ready('198.51.100.7')).toBe(200)
      expect(await ready('198.51.100.7')).toBe(429)
      expect(await ready('198.51.100.8')).toBe(200)
      // An IPv6 client is one /64.
      for (let i = 0; i < READY_PER_MINUTE; i++) expect(await ready('2001:db8:1:2::1')).toBe(200)
      expect(await ready('2001:db8:1:2::ffff')).toBe(429)
    } finally {
      await limited.app.stop(true)
      await limited.close()
    }
  })
})
