// Engagement sessions on the compiled binary and the real clock, with the shortest settings
// (ENGAGEMENT_INTERVAL=1, ENGAGEMENT_AUTO_CLOSE_MINUTES=0.05 = 3 s, ENGAGEMENT_REOPEN_HOURS=0.001 = 3.6 s),
// nothing edited in the database: a session snoozed 2 s ahead is woken by the binary's own cron loop (and
// gets the whole inactivity window again); an idle session is closed as auto_inactive once 3 s have
// passed; an inbound message reopens a session closed just now, while one 3.6 s after the closing opens a
// new session. The same interval runs survey_expiry: an offer made with SURVEY_EXPIRY_HOURS=0.001 (3.6 s)
// is marked expired by the cron loop, and its link then takes no answer (409). About 6 s.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type RunningServer, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-engagements-clock-')
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@engagements-clock.test',
  ADMIN_PASSWORD: 'engagements-clock-test-password',
  CRON_TICK_MS: '100',
  ENGAGEMENT_INTERVAL: '1',
  ENGAGEMENT_AUTO_CLOSE_MINUTES: '0.05',
  ENGAGEMENT_REOPEN_HOURS: '0.001',
  SURVEY_EXPIRY_HOURS: '0.001',
  RATE_LIMITS_ENABLED: 'false',
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

let server: RunningServer
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

const AUTO_CLOSE_MS = 3_000
const REOPEN_MS = 3_600

const s = {} as {
  snoozed: Json
  snoozedAt: number
  idle: Json
  idleCreated: Json
  reopened: Json
  fresh: Json
  old: Json
  offer: Json
  expired: Json
  answer: Response
}

describe('engagement sessions on the real clock (one binary, about 6 s)', () => {
  beforeAll(async () => {
    server = await startServer([await compiledBinary()], env, folder)
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

    s.idleCreated = await session()

    // Reopened by a message right after closing; read at once, before its own inactivity closes it.
    const recent = await session()
    await call('POST', `/engagements/${recent.id}/close`, {})
    const message = await call('POST', `/engagements/${recent.id}/messages`, { direction: 'in', body: 'one more thing' }, 201)
    s.reopened = { id: recent.id, message, engagement: await call('GET', `/engagements/${message.engagement_id}`) }

    const old = await session()
    const closed = await call('POST', `/engagements/${old.id}/close`, {})
    s.offer = await call('POST', '/surveys', { survey_type: 'csat', subject_type: 'engagement', subject_id: old.id }, 201)

    s.snoozed = await eventually(
      () => call('GET', `/engagements/${snoozed.id}`),
      (row) => row.status === 'active',
      6_000,
    )
    s.idle = await eventually(
      () => call('GET', `/engagements/${s.idleCreated.id}`),
      (row) => row.status === 'closed',
      8_000,
    )
    // The reopening window really passes.
    await Bun.sleep(Math.max(0, Date.parse(closed.closed_at) + REOPEN_MS + 100 - Date.now()))
    const moved = await call('POST', `/engagements/${old.id}/messages`, { direction: 'in', body: 'new question' }, 201)
    s.old = await call('GET', `/engagements/${old.id}`)
    s.fresh = await call('GET', `/engagements/${moved.engagement_id}`)

    s.expired = await eventually(
      () => call('GET', `/survey-responses/${s.offer.response.id}`),
      (row) => row.status === 'expired',
      4_000,
    )
    s.answer = await fetch(`${server.url}${new URL(s.offer.url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"score":5}',
    })
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  test('a snoozed session is woken by the cron loop at snoozed_until (ENGAGEMENT_INTERVAL=1), with the whole inactivity window again', async () => {
    expect(s.snoozed).toMatchObject({ status: 'active', snoozed_until: null })
    expect(Date.parse(s.snoozed.updated_at)).toBeGreaterThanOrEqual(s.snoozedAt)
    // Created seconds before the wake: without the fresh start it would be closed in the same cron run.
    expect(Date.parse(s.snoozed.last_activity_at)).toBe(Date.parse(s.snoozed.updated_at))
  })

  test('a session inactive for ENGAGEMENT_AUTO_CLOSE_MINUTES (3 s) is closed as auto_inactive, not before', () => {
    expect(s.idle).toMatchObject({ status: 'closed', close_reason: 'auto_inactive', last_activity_at: s.idleCreated.last_activity_at })
    expect(Date.parse(s.idle.closed_at) - Date.parse(s.idleCreated.last_activity_at)).toBeGreaterThanOrEqual(AUTO_CLOSE_MS)
  })

  test('an inbound message reopens a session closed within ENGAGEMENT_REOPEN_HOURS (3.6 s), and opens a new one after', async () => {
    expect(s.reopened.message.engagement_id).toBe(s.reopened.id)
    expect(s.reopened.engagement).toMatchObject({ id: s.reopened.id, status: 'active', closed_at: null })
    expect(s.old.status).toBe('closed')
    expect(Date.parse(s.fresh.created_at) - Date.parse(s.old.closed_at)).toBeGreaterThan(REOPEN_MS)
    expect(s.fresh).toMatchObject({ status: 'queued', contact_id: s.old.contact_id, channel: 'chat' })
    expect(s.fresh.id).not.toBe(s.old.id)
  })

  test('an unanswered survey offer is marked expired by the cron loop after SURVEY_EXPIRY_HOURS (3.6 s); its link takes no answer', async () => {
    const offered = s.offer.response
    expect(Date.parse(offered.expires_at) - Date.parse(offered.offered_at)).toBe(3_600)
    expect(s.expired).toMatchObject({ id: offered.id, status: 'expired', score: null, responded_at: null })
    expect(Date.parse(s.expired.updated_at)).toBeGreaterThanOrEqual(Date.parse(offered.expires_at))
    expect(s.answer.status).toBe(409)
    expect(await s.answer.json()).toMatchObject({ code: 'INVALID_STATE_TRANSITION' })
  })
})
