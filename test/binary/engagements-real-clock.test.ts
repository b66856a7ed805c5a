// Engagement sessions on the compiled binary and the real clock, with the shortest settings
// (ENGAGEMENT_INTERVAL=1, ENGAGEMENT_AUTO_CLOSE_MINUTES=1, ENGAGEMENT_REOPEN_HOURS=1): a session snoozed
// 2 s ahead is woken by the binary's own cron loop; a session whose last activity is set a minute back in
// the database (no test waits a minute) is closed as auto_inactive within about a second; an inbound
// message reopens a session closed just now, while one on a session closed an hour ago (set in the
// database: an hour is not waited either) opens a new session. A few seconds.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DataDirDb, openDataDirDb } from '../helpers/data-dir-db.ts'
import { type RunningServer, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-engagements-clock-')
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@engagements-clock.test',
  ADMIN_PASSWORD: 'engagements-clock-test-password',
  CRON_TICK_MS: '100',
  ENGAGEMENT_INTERVAL: '1',
  ENGAGEMENT_AUTO_CLOSE_MINUTES: '1',
  ENGAGEMENT_REOPEN_HOURS: '1',
  RATE_LIMITS_ENABLED: 'false',
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

let server: RunningServer
let db: DataDirDb
let token = ''

async function call(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  expect({ path, status: response.status, text }).toMatchObject({ path, status })
  return text ? (JSON.parse(text) as Json) : {}
}

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value) || Date.now() > deadline) return value
    await Bun.sleep(100)
  }
}

const s = {} as { snoozed: Json; snoozedAt: number; idle: Json; reopened: Json; fresh: Json; old: Json }

describe('engagement sessions on the real clock (one binary, about 3 s)', () => {
  beforeAll(async () => {
    server = await startServer([await compiledBinary()], env, folder)
    db = await openDataDirDb(env.DATA_DIR)
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    })
    token = ((await login.json()) as Json).access_token
    const me = await call('GET', '/me')
    const contact = await call('POST', '/contacts', { name: 'Grace Customer' }, 201)
    const session = () => call('POST', '/engagements', { contact_id: contact.id, channel: 'chat', assignee_id: me.id }, 201)

    const snoozed = await session()
    s.snoozedAt = Date.now() + 2_000
    await call('POST', `/engagements/${snoozed.id}/snooze`, { until: new Date(s.snoozedAt).toISOString() })

    const idle = await session()
    await db.run('UPDATE engagements SET last_activity_at = ? WHERE id = ?', [Date.now() - 61_000, idle.id])

    const recent = await session()
    await call('POST', `/engagements/${recent.id}/close`, {})
    s.reopened = await call('POST', `/engagements/${recent.id}/messages`, { direction: 'in', body: 'one more thing' }, 201)

    const old = await session()
    await call('POST', `/engagements/${old.id}/close`, {})
    await db.run('UPDATE engagements SET closed_at = ? WHERE id = ?', [Date.now() - 3_600_001, old.id])
    const moved = await call('POST', `/engagements/${old.id}/messages`, { direction: 'in', body: 'new question' }, 201)
    s.old = await call('GET', `/engagements/${old.id}`)
    s.fresh = await call('GET', `/engagements/${moved.engagement_id}`)

    s.idle = await eventually(
      () => call('GET', `/engagements/${idle.id}`),
      (row) => row.status === 'closed',
      3_000,
    )
    s.snoozed = await eventually(
      () => call('GET', `/engagements/${snoozed.id}`),
      (row) => row.status === 'active',
      4_500,
    )
  }, 120_000)

  afterAll(async () => {
    await db?.close()
    await server?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  test('a snoozed session is woken by the cron loop at snoozed_until (ENGAGEMENT_INTERVAL=1)', async () => {
    expect(s.snoozed).toMatchObject({ status: 'active', snoozed_until: null })
    expect(Date.parse(s.snoozed.updated_at)).toBeGreaterThanOrEqual(s.snoozedAt)
  })

  test('a session inactive for ENGAGEMENT_AUTO_CLOSE_MINUTES is closed as auto_inactive', () => {
    expect(s.idle).toMatchObject({ status: 'closed', close_reason: 'auto_inactive' })
  })

  test('an inbound message reopens a session closed within ENGAGEMENT_REOPEN_HOURS, and opens a new one after', async () => {
    expect((await call('GET', `/engagements/${s.reopened.engagement_id}`)).status).toBe('active')
    expect(s.old.status).toBe('closed')
    expect(s.fresh).toMatchObject({ status: 'queued', contact_id: s.old.contact_id, channel: 'chat' })
    expect(s.fresh.id).not.toBe(s.old.id)
  })
})
