// The compiled executable, alone in an empty folder: it migrates, serves /health and /openapi.json,
// answers errors in our shape, and exits 0 on SIGTERM. Built by the same function as `bun run build`.
import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { EVENT_TYPES } from '../../src/modules/events/catalog.ts'
import { VERSION } from '../../src/version.ts'
import { tempDir } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { run, startServer } from '../helpers/process.ts'
import { CA_FILE, startReceiver } from '../helpers/receiver.ts'

const folder = tempDir('switchboard-binary-')
const binary = join(folder, 'switchboard')
afterAll(() => rmSync(folder, { recursive: true, force: true }))
beforeAll(() => buildBinary(binary), 120_000)

describe('dist/switchboard copied alone to a folder', () => {
  test('is one file', () => {
    expect(readdirSync(folder)).toEqual(['switchboard'])
  })

  test('version, usage and exit codes', async () => {
    expect(await run([binary, 'version'], {}, folder)).toEqual({
      code: 0,
      stdout: `switchboard ${VERSION} (bun ${Bun.version})\n`,
      stderr: '',
    })
    expect((await run([binary, '--help'], {}, folder)).stdout).toStartWith('Usage: switchboard')
    expect((await run([binary, 'nonsense'], {}, folder)).code).toBe(2)
    expect((await run([binary], { PORT: 'x' }, folder)).code).toBe(2)
  })

  test('migrate applies the embedded migrations into ./data', async () => {
    const cwd = join(folder, 'migrate-here')
    mkdirSync(cwd)
    const result = await run([binary, 'migrate'], {}, cwd)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ database: join(cwd, 'data/switchboard.db'), applied: MIGRATIONS.map((m) => m.tag) })
  })

  test('serves /health, /ready, /openapi.json and /docs, renders errors, and stops on SIGTERM with 0', async () => {
    const server = await startServer([binary], {}, folder)
    try {
      const health = (await (await fetch(`${server.url}/health`)).json()) as Record<string, unknown>
      expect(health).toMatchObject({ status: 'ok', version: VERSION })
      expect(Object.keys(health.cron as object)).toEqual([
        'db_maintenance',
        'auth_cleanup',
        'mfa_cleanup',
        'revocations_prune',
        'oauth_cleanup',
        'ticket_auto_close',
        'idempotency_cleanup',
        'upload_expiry',
        'recording_processing',
        'recording_retention',
        'agent_idle_logout',
        'billing_renewals',
        'billing_dunning',
        'billing_incomplete_expiry',
        'engagement_snooze_wake',
        'engagement_auto_close',
        'survey_expiry',
        'reports_fold',
        // This binary runs on its embedded database (no DATA_DIR given): its counters are in memory.
        'rate_limit_save',
        'webhook_dispatch',
        'webhook_prune',
      ])
      expect((await fetch(`${server.url}/ready`)).status).toBe(200)

      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        openapi: string
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>
        webhooks: Record<string, unknown>
      }
      expect(doc.openapi).toStartWith('3.1')
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/health', '/ready', '/.well-known/jwks.json', '/api/v1/auth/login', '/api/v1/me']),
      )
      // Built inside the binary the same way as from source: valid, with request bodies and the webhooks section.
      await SwaggerParser.validate(structuredClone(doc) as never)
      expect(Object.keys(doc.paths['/api/v1/tickets']!.post!.requestBody!.content)).toEqual(['application/json'])
      expect(Object.keys(doc.webhooks).length).toBe(Object.values(EVENT_TYPES).flat().length)
      expect((await fetch(`${server.url}/docs`)).headers.get('content-type')).toStartWith('text/html')

      const missing = await fetch(`${server.url}/nope`, { headers: { 'x-request-id': 'from-test' } })
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({ code: 'NOT_FOUND', message: 'No route matches this path', request_id: 'from-test' })
      // Rate limits are on by default: an unauthenticated request counts against its address; probes never count.
      // (/openapi.json, /docs and this one counted: 57 left, or 58 if a minute boundary fell between them.)
      expect(missing.headers.get('x-ratelimit-limit')).toBe('60')
      expect(Number(missing.headers.get('x-ratelimit-remaining'))).toBeWithin(57, 59)
      expect((await fetch(`${server.url}/health`)).headers.get('x-ratelimit-limit')).toBeNull()
      const wrong = await fetch(`${server.url}/health`, { method: 'PUT' })
      expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD'])

      expect((await run([binary, 'healthcheck'], { PORT: new URL(server.url).port }, folder)).code).toBe(0)
    } finally {
      const finished = await server.stop('SIGTERM')
      expect(finished.code).toBe(0)
      expect(finished.stdout).toContain('"msg":"stopped"')
    }
    expect(existsSync(join(folder, 'data/switchboard.db'))).toBe(true)
  }, 60_000)

  test('backup from the binary copies its database', async () => {
    const result = await run([binary, 'backup', 'copy.db'], {}, folder)
    expect(result.code).toBe(0)
    expect(existsSync(join(folder, 'copy.db'))).toBe(true)
  })
})

describe('webhooks across a crash of the binary', () => {
  test('killed with SIGKILL while deliveries are in flight and pending: after a restart every event reaches the receiver at least once', async () => {
    let slow = true
    const receiver = await startReceiver(() => ({ status: 200, delayMs: slow ? 1500 : 0 }))
    const dataDir = join(folder, 'crash-data')
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'admin@crash.test',
      ADMIN_PASSWORD: 'crash-test-password',
      NODE_EXTRA_CA_CERTS: CA_FILE,
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1',
      WEBHOOK_CONCURRENCY: '2',
      CRON_TICK_MS: '100',
      RATE_LIMITS_ENABLED: 'false',
    }
    let server = await startServer([binary], env, folder)
    try {
      const login = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
      })
      const auth = {
        authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
        'content-type': 'application/json',
      }
      // The receiver is on loopback: the operator allows it for this organization.
      const orgId = ((await (await fetch(`${server.url}/api/v1/me`, { headers: auth })).json()) as { organization_id: string })
        .organization_id
      expect((await run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], { DATA_DIR: dataDir }, folder)).code).toBe(0)
      const hook = await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ url: receiver.url(), events: ['ticket.created'], secret: 'crash-test-secret-16' }),
      })
      expect(hook.status).toBe(201)
      const eventsExpected = 12
      for (let i = 0; i < eventsExpected; i++) {
        expect(
          (await fetch(`${server.url}/api/v1/tickets`, { method: 'POST', headers: auth, body: JSON.stringify({ subject: `Crash ${i}` }) }))
            .status,
        ).toBe(201)
      }
      // Two are in flight (the receiver takes 1.5 s each), ten are pending: kill it now.
      for (const deadline = Date.now() + 20_000; receiver.received.length === 0 && Date.now() < deadline; ) await Bun.sleep(20)
      const killed = await server.stop('SIGKILL')
      expect(killed.code).not.toBe(0)
      await Bun.sleep(1600)
      const cutOff = receiver.received.filter((r) => !r.answered).map((r) => r.headers['webhook-id'])
      expect(cutOff.length).toBeGreaterThan(0)
      expect(receiver.received.length).toBeLessThan(eventsExpected)

      slow = false
      server = await startServer([binary], env, folder)
      // In-flight claims come back when their lease (2 x timeout + 5 s) runs out; the rest at once.
      const eventIds = async () =>
        (
          await withDataDirDb(dataDir, (db) => db.all<{ id: string }>("SELECT id FROM events WHERE type = 'ticket.created'"), {
            readonly: true,
          })
        ).map((r) => r.id)
      const expected = await eventIds()
      expect(expected).toHaveLength(eventsExpected)
      // Only answered deliveries count: those cut off by the kill must be sent again.
      const seen = () => new Set(receiver.received.filter((r) => r.answered).map((r) => r.headers['webhook-id']))
      for (const deadline = Date.now() + 30_000; expected.some((id) => !seen().has(id)) && Date.now() < deadline; ) await Bun.sleep(100)
      expect(expected.filter((id) => !seen().has(id))).toEqual([])
      // The deliveries cut off by the kill were claimed when it happened: sent again once their lease ran out.
      for (const id of cutOff)
        expect(receiver.received.filter((r) => r.headers['webhook-id'] === id && r.answered).length).toBeGreaterThanOrEqual(1)
    } finally {
      expect((await server.stop('SIGTERM')).code).toBe(0)
      receiver.stop()
    }
  }, 90_000)
})
