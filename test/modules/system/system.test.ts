// GET /health (liveness + cron state) and GET /ready (database takes a write), both public.
import { afterAll, describe, expect, test } from 'bun:test'
import { VERSION } from '../../../src/version.ts'
import { json, makeTestApp } from '../../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())

describe('GET /health', () => {
  test('reports status, version, uptime and every cron task, without authentication', async () => {
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      status: 'ok',
      version: VERSION,
      uptime_s: 0,
      cron: {
        db_maintenance: {
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          runs: 0,
          failures: 0,
          next_run_at: new Date(app.deps.startedAt + 3_600_000).toISOString(),
        },
        auth_cleanup: {
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          runs: 0,
          failures: 0,
          next_run_at: new Date(app.deps.startedAt + 300_000).toISOString(),
        },
        ticket_auto_close: {
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          runs: 0,
          failures: 0,
          next_run_at: new Date(app.deps.startedAt + 600_000).toISOString(),
        },
        webhook_dispatch: {
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          runs: 0,
          failures: 0,
          next_run_at: new Date(app.deps.startedAt + 1000).toISOString(),
        },
        webhook_prune: {
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          runs: 0,
          failures: 0,
          next_run_at: new Date(app.deps.startedAt + 3_600_000).toISOString(),
        },
      },
    })
  })

  test('uptime follows the clock; a cron run shows up with its time and duration', async () => {
    app.clock.advance(3_600_000)
    await app.deps.scheduler.tick()
    const body = await json<{ uptime_s: number; cron: Record<string, Record<string, unknown>> }>(await app.request('/health'))
    expect(body.uptime_s).toBe(3600)
    expect(body.cron.db_maintenance).toMatchObject({ last_run_at: new Date(app.clock.now()).toISOString(), last_error: null, runs: 1, failures: 0 })
    expect(body.cron.db_maintenance!.last_duration_ms).toBeGreaterThanOrEqual(0)
  })

  test('is "degraded" while a task\'s last run failed, and says why', async () => {
    let fail = true
    app.deps.scheduler.register({
      name: 'flaky',
      intervalMs: 1000,
      run() {
        if (fail) throw new Error('upstream unreachable')
      },
    })
    app.clock.advance(1000)
    await app.deps.scheduler.tick()
    let body = await json<{ status: string; cron: Record<string, Record<string, unknown>> }>(await app.request('/health'))
    expect(body.status).toBe('degraded')
    expect(body.cron.flaky).toMatchObject({ last_error: 'upstream unreachable', runs: 1, failures: 1 })
    fail = false
    app.clock.advance(1000)
    await app.deps.scheduler.tick()
    body = await json(await app.request('/health'))
    expect(body.status).toBe('ok')
    expect(body.cron.flaky).toMatchObject({ last_error: null, runs: 2, failures: 1 })
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
    expect(await json(response)).toEqual({ status: 'ready' })
    const row = app.deps.sqlite.query("SELECT value, updated_at FROM system_kv WHERE key = 'ready_probe'").get()
    expect(row).toEqual({ value: String(app.clock.now()), updated_at: app.clock.now() })
  })

  test('503 while the database refuses writes, 200 again once it accepts them', async () => {
    app.deps.sqlite.run('PRAGMA query_only = ON')
    try {
      const response = await app.request('/ready')
      expect(response.status).toBe(503)
      expect(await json(response)).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database does not accept writes',
        request_id: response.headers.get('x-request-id'),
      })
      const warning = app.logs.records().find((r) => r.msg === 'not ready')
      expect(warning?.reason).toContain('readonly')
      expect(warning?.request_id).toBe(response.headers.get('x-request-id'))
      // Liveness is not readiness: /health still answers.
      expect((await app.request('/health')).status).toBe(200)
    } finally {
      app.deps.sqlite.run('PRAGMA query_only = OFF')
    }
    expect((await app.request('/ready')).status).toBe(200)
  })
})
