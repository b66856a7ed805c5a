// Delivery end to end against a real HTTPS receiver on loopback, on a fake clock: the exact bytes
// and headers (both signatures checked independently), the delivery record, the whole retry
// schedule ending in the webhook disabled and later events skipped, 410 Gone, redirects not
// followed, a receiver's Retry-After, and SSRF refusals at send time.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { standardWebhooksSecret } from '../../../src/lib/webhook-signature.ts'
import { WebhookDispatcher } from '../../../src/modules/webhooks/index.ts'
import { VERSION } from '../../../src/version.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver, type Answer, type Receiver } from '../../helpers/receiver.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

const SECRET = 'a-secret-of-16-chars-or-more'
const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

interface Setup {
  app: TestApp
  org: SeededOrg
  receiver: Receiver
  dispatcher: WebhookDispatcher
  send(method: string, path: string, body?: unknown): Promise<Response>
  /** Sends what is due now and waits for the answers. */
  run(): Promise<void>
}

/** `allowed`: the organization's allowed ranges (loopback, where the receiver is), or null for none. */
async function setUp(
  answer?: (r: { path: string }, i: number) => Answer,
  settings: Record<string, string> = {},
  resolve?: (host: string) => Promise<string[]>,
  allowed: string | null = '127.0.0.0/8',
): Promise<Setup> {
  const receiver = await startReceiver(answer)
  // A fake clock starting now: receivers (the standardwebhooks library) check the signed timestamp
  // against their own clock. Day-long tokens: the schedule spans hours of fake time.
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...settings }, { clock: new FakeClock(Date.now()) })
  const org = await seedOrganization(app, 'acme')
  if (allowed !== null) await allowWebhookCidrs(app, org.org.id, allowed)
  const dispatcher = new WebhookDispatcher(app.context, { extraCa: receiver.ca, ...(resolve ? { resolve } : {}) })
  cleanups.push(
    () => receiver.stop(),
    () => app.close(),
    () => dispatcher.stop(0),
  )
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...org.users.admin.auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    app,
    org,
    receiver,
    dispatcher,
    send,
    async run() {
      await dispatcher.pump()
      await dispatcher.settled()
    },
  }
}

async function register(s: Setup, url = s.receiver.url(), events = ['ticket.*']): Promise<string> {
  const response = await s.send('POST', '/api/v1/webhooks', { url, events, secret: SECRET })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

async function newTicket(s: Setup, subject = 'Printer on fire'): Promise<string> {
  const response = await s.send('POST', '/api/v1/tickets', { subject })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

interface DeliveryRow {
  id: string
  event_id: string
  trigger: string
  attempt: number
  status: string
  response_code: number | null
  response_time_ms: number | null
  response_body: string | null
  error_class: string | null
  error_message: string | null
  delivered_at: number | null
  next_attempt_at: number | null
}

const rows = (s: Setup, webhookId: string) =>
  s.app.context.db.raw.all<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at, attempt', [webhookId])
/** The webhook's state as stored; `enabled` read as the modules read it (0/1 on SQLite, a boolean on PostgreSQL). */
const webhookState = async (s: Setup, id: string) => {
  const row = (await s.app.context.db.raw.get<{ enabled: number | boolean; disabled_reason: string | null; consecutive_failures: number }>(
    'SELECT enabled, disabled_reason, consecutive_failures FROM webhooks WHERE id = ?',
    [id],
  ))!
  return { ...row, enabled: Boolean(row.enabled) }
}

describe('a delivery', () => {
  test('is the stored envelope byte for byte, with both signatures and the delivery headers, and leaves a success record', async () => {
    const s = await setUp()
    const webhookId = await register(s)
    const ticketId = await newTicket(s)
    await s.run()
    expect(s.receiver.received).toHaveLength(1)
    const [request] = s.receiver.received
    const event = (await s.app.context.db.raw.get<{ id: string; body: string }>(
      "SELECT id, body FROM events WHERE type = 'ticket.created'",
    ))!
    expect(request!.body).toBe(event.body)
    expect(JSON.parse(request!.body)).toMatchObject({
      id: event.id,
      type: 'ticket.created',
      organization_id: s.org.org.id,
      data: { ticket: { id: ticketId } },
    })

    const h = request!.headers
    expect(h['content-type']).toBe('application/json')
    expect(h['user-agent']).toBe(`Switchboard-Webhooks/${VERSION}`)
    const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(request!.body).digest('hex')}`)
    expect(timingSafeEqual(Buffer.from(h['x-service-signature']!), expected)).toBe(true)
    expect(h['webhook-id']).toBe(event.id)
    expect(new Webhook(standardWebhooksSecret(SECRET)).verify(request!.body, h)).toMatchObject({ id: event.id })

    const [record] = await rows(s, webhookId)
    expect(record).toMatchObject({
      event_id: event.id,
      attempt: 1,
      status: 'success',
      response_code: 200,
      response_body: 'ok',
      error_class: null,
      next_attempt_at: null,
      delivered_at: s.app.clock.now(),
    })
    expect(h['x-service-delivery-id']).toBe(record!.id)
    expect(h['x-service-attempt']).toBe('1')
    expect(record!.response_time_ms).toBeGreaterThanOrEqual(0)
  })
})

describe('failures', () => {
  test('the whole schedule: six attempts at its delays, then the webhook is disabled and later events are skipped', async () => {
    const s = await setUp(() => ({ status: 500, body: 'boom' }))
    const webhookId = await register(s)
    await newTicket(s)
    const schedule = s.app.config.webhooks.retryScheduleMs
    expect(schedule).toEqual([0, 60_000, 300_000, 1_800_000, 7_200_000, 28_800_000])
    await s.run()
    for (let attempt = 2; attempt <= 6; attempt++) {
      const pending = (await rows(s, webhookId)).at(-1)!
      expect([pending.attempt, pending.status]).toEqual([attempt, 'pending'])
      const due = pending.next_attempt_at! - s.app.clock.now()
      // The scheduled delay plus a jitter of at most 10% that only delays.
      expect(due).toBeGreaterThanOrEqual(schedule[attempt - 1]!)
      expect(due).toBeLessThanOrEqual(schedule[attempt - 1]! * 1.1)
      s.app.clock.advance(due - 1)
      await s.run()
      expect(s.receiver.received).toHaveLength(attempt - 1)
      s.app.clock.advance(1)
      await s.run()
      expect(s.receiver.received).toHaveLength(attempt)
    }
    const attempts = await rows(s, webhookId)
    expect(attempts.map((r) => [r.attempt, r.status, r.response_code, r.error_class])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 'failed', 500, 'http_status']),
    )
    expect(new Set(s.receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(s.receiver.received.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4', '5', '6'])
    expect(await webhookState(s, webhookId)).toEqual({ enabled: false, disabled_reason: 'exhausted', consecutive_failures: 6 })
    const disabled = await s.app.context.db.raw.all<{ event: string; reason: string }>(
      "SELECT event, reason FROM audit_logs WHERE target_id = ? AND event = 'webhook.disabled'",
      [webhookId],
    )
    expect(disabled).toEqual([{ event: 'webhook.disabled', reason: 'exhausted' }])

    await newTicket(s, 'Another')
    await s.run()
    expect(s.receiver.received).toHaveLength(6)
    expect((await rows(s, webhookId)).at(-1)).toMatchObject({ attempt: 1, status: 'skipped' })
  })

  test('on a clock that moves between queueing and sending, as a real one does, the last failure still disables the webhook', async () => {
    const s = await setUp(() => ({ status: 500 }), { WEBHOOK_RETRY_SCHEDULE: '0,1,1' })
    const webhookId = await register(s)
    await newTicket(s)
    // Queued now, attempt 1 recorded 250 ms later: its failure (failing_since) comes after the row's created_at.
    for (let attempt = 1; attempt <= 3; attempt++) {
      s.app.clock.advance(attempt === 1 ? 250 : 1_200)
      await s.run()
    }
    expect((await rows(s, webhookId)).map((r) => [r.attempt, r.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ])
    expect(await webhookState(s, webhookId)).toEqual({ enabled: false, disabled_reason: 'exhausted', consecutive_failures: 3 })
  })

  test("a success of another event after an event's first attempt keeps the webhook on when that event's last attempt fails", async () => {
    // The first event always fails; the second one's attempt, sent between, succeeds.
    const s = await setUp((_, i) => ({ status: i === 1 ? 200 : 500 }), { WEBHOOK_RETRY_SCHEDULE: '0,1,1' })
    const webhookId = await register(s)
    await newTicket(s, 'always failing')
    await s.run()
    s.app.clock.advance(100)
    await newTicket(s, 'delivered')
    await s.run()
    for (let i = 0; i < 2; i++) {
      s.app.clock.advance(1_200)
      await s.run()
    }
    expect((await rows(s, webhookId)).map((r) => r.status).sort()).toEqual(['failed', 'failed', 'failed', 'success'])
    expect(await webhookState(s, webhookId)).toMatchObject({ enabled: true, consecutive_failures: 2 })
  })

  test('a recovered event whose fresh schedule fails again disables the webhook again', async () => {
    let up = false
    const s = await setUp(() => ({ status: up ? 200 : 500 }), { WEBHOOK_RETRY_SCHEDULE: '0,1' })
    const webhookId = await register(s)
    const since = new Date(s.app.clock.now()).toISOString()
    await newTicket(s)
    for (let attempt = 1; attempt <= 2; attempt++) {
      s.app.clock.advance(1_200)
      await s.run()
    }
    expect(await webhookState(s, webhookId)).toMatchObject({ enabled: false, disabled_reason: 'exhausted' })
    expect((await s.send('PATCH', `/api/v1/webhooks/${webhookId}`, { enabled: true })).status).toBe(200)
    s.app.clock.advance(60_000)
    expect((await json<{ queued: number }>(await s.send('POST', `/api/v1/webhooks/${webhookId}/recover`, { since }))).queued).toBe(1)
    for (let attempt = 1; attempt <= 2; attempt++) {
      s.app.clock.advance(1_200)
      await s.run()
    }
    expect((await rows(s, webhookId)).map((r) => [r.trigger, r.attempt, r.status])).toEqual([
      ['event', 1, 'failed'],
      ['event', 2, 'failed'],
      ['recover', 1, 'failed'],
      ['recover', 2, 'failed'],
    ])
    expect(await webhookState(s, webhookId)).toMatchObject({ enabled: false, disabled_reason: 'exhausted' })
    up = true
  })

  test('410 Gone disables the webhook at once', async () => {
    const s = await setUp(() => ({ status: 410 }))
    const webhookId = await register(s)
    await newTicket(s)
    await s.run()
    expect((await rows(s, webhookId)).map((r) => r.status)).toEqual(['failed'])
    expect(await webhookState(s, webhookId)).toMatchObject({ enabled: false, disabled_reason: 'gone' })
  })

  test('a redirect is not followed: one request, a failure of class redirect', async () => {
    const s = await setUp((r) => (r.path === '/hook' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }))
    const webhookId = await register(s)
    await newTicket(s)
    await s.run()
    expect(s.receiver.received.map((r) => r.path)).toEqual(['/hook'])
    expect((await rows(s, webhookId))[0]).toMatchObject({ status: 'failed', response_code: 302, error_class: 'redirect' })
  })

  test('Retry-After on a 503 is honoured, up to twice the scheduled delay', async () => {
    const answers = [
      { status: 503, headers: { 'retry-after': '100' } },
      { status: 503, headers: { 'retry-after': '100000' } },
    ]
    const s = await setUp((_, i) => answers[i] ?? { status: 200 })
    const webhookId = await register(s)
    await newTicket(s)
    await s.run()
    const second = (await rows(s, webhookId)).at(-1)!
    expect(second.next_attempt_at! - s.app.clock.now()).toBeGreaterThanOrEqual(100_000)
    expect(second.next_attempt_at! - s.app.clock.now()).toBeLessThanOrEqual(120_000)
    s.app.clock.advance(second.next_attempt_at! - s.app.clock.now())
    await s.run()
    // Asked for 100,000 s before attempt 3 (scheduled 300 s): capped at 600 s.
    const third = (await rows(s, webhookId)).at(-1)!
    expect(third.next_attempt_at! - s.app.clock.now()).toBe(600_000)
  })

  test('the receiver answering too slowly is a timeout', async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 1500 }), { WEBHOOK_TIMEOUT_MS: '1000' })
    const webhookId = await register(s)
    await newTicket(s)
    await s.run()
    expect((await rows(s, webhookId))[0]).toMatchObject({ status: 'failed', response_code: null, error_class: 'timeout' })
  })

  test('a success resets the failure count', async () => {
    const s = await setUp((_, i) => ({ status: i === 0 ? 500 : 200 }))
    const webhookId = await register(s)
    await newTicket(s)
    await s.run()
    expect((await webhookState(s, webhookId)).consecutive_failures).toBe(1)
    s.app.clock.advance(70_000)
    await s.run()
    expect(await webhookState(s, webhookId)).toMatchObject({ enabled: true, consecutive_failures: 0 })
  })
})

describe('SSRF at send time', () => {
  test('a name resolving to 127.0.0.1, loopback not allowed for the organization, is refused and recorded, nothing sent', async () => {
    const s = await setUp(undefined, {}, undefined, null)
    const webhookId = await register(s, `https://localhost:${s.receiver.port}/hook`)
    await newTicket(s)
    await s.run()
    expect(s.receiver.received).toHaveLength(0)
    const [record] = await rows(s, webhookId)
    expect(record).toMatchObject({ status: 'failed', error_class: 'ssrf_blocked' })
    expect(record!.error_message).toContain('loopback')
  })

  test('the same internal receiver: delivered for the organization the operator allowed, refused for another, and for the first once cleared', async () => {
    const s = await setUp(undefined, {}, async () => ['127.0.0.1'])
    const other = await seedOrganization(s.app, 'other')
    const url = `https://hooks.test:${s.receiver.port}/hook`
    const allowedHook = await register(s, url)
    const otherResponse = await s.app.request('/api/v1/webhooks', {
      method: 'POST',
      headers: { ...other.users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['ticket.*'], secret: SECRET }),
    })
    const otherHook = (await json<{ id: string }>(otherResponse)).id
    await newTicket(s)
    const otherTicket = await s.app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...other.users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Other' }),
    })
    expect(otherTicket.status).toBe(201)
    await s.run()
    expect(s.receiver.received).toHaveLength(1)
    expect(JSON.parse(s.receiver.received[0]!.body)).toMatchObject({ organization_id: s.org.org.id })
    expect((await rows(s, allowedHook))[0]).toMatchObject({ status: 'success' })
    expect((await rows(s, otherHook))[0]).toMatchObject({ status: 'failed', error_class: 'ssrf_blocked' })
    expect((await rows(s, otherHook))[0]!.error_message).toBe(
      'hooks.test resolves to 127.0.0.1, a loopback address: refused (the operator can allow it for this organization)',
    )
    // The operator clears the list: the next claim reads it, no restart needed.
    await allowWebhookCidrs(s.app, s.org.org.id, '')
    s.app.clock.advance(1000)
    await newTicket(s, 'after clearing')
    await s.run()
    expect(s.receiver.received).toHaveLength(1)
    expect((await rows(s, allowedHook)).map((r) => [r.attempt, r.status, r.error_class])).toEqual([
      [1, 'success', null],
      [1, 'failed', 'ssrf_blocked'],
      [2, 'pending', null],
    ])
  })

  test('any non-public address of a name refuses it, IPv4-mapped IPv6 included', async () => {
    for (const addresses of [['::ffff:127.0.0.1'], ['93.184.216.34', '10.0.0.1'], ['::ffff:169.254.169.254']]) {
      const s = await setUp(undefined, {}, async () => addresses, null)
      const webhookId = await register(s, `https://hooks.test:${s.receiver.port}/hook`)
      await newTicket(s)
      await s.run()
      expect(s.receiver.received).toHaveLength(0)
      expect((await rows(s, webhookId))[0]).toMatchObject({ status: 'failed', error_class: 'ssrf_blocked' })
    }
  })

  test("a receiver's name is looked up once for many sends (the answer is kept 30 s)", async () => {
    const lookups: string[] = []
    const s = await setUp(undefined, {}, async (host) => {
      lookups.push(host)
      return ['127.0.0.1']
    })
    const webhookId = await register(s, `https://hooks.test:${s.receiver.port}/hook`)
    for (let i = 0; i < 3; i++) await newTicket(s)
    await s.run()
    expect(s.receiver.received).toHaveLength(3)
    expect(lookups).toEqual(['hooks.test'])
    expect((await rows(s, webhookId)).map((r) => r.status)).toEqual(['success', 'success', 'success'])
  })

  test('with the range allowed, the name connects to the checked address and TLS verifies the name', async () => {
    const s = await setUp(undefined, {}, async () => ['127.0.0.1'])
    const webhookId = await register(s, `https://hooks.test:${s.receiver.port}/hook`)
    await newTicket(s)
    await s.run()
    expect(s.receiver.received).toHaveLength(1)
    expect(s.receiver.received[0]!.headers.host).toBe(`hooks.test:${s.receiver.port}`)
    expect((await rows(s, webhookId))[0]).toMatchObject({ status: 'success' })
    // A name the certificate does not cover fails TLS, although the address is the same.
    const wrongName = await register(s, `https://wrong.test:${s.receiver.port}/hook`)
    await newTicket(s)
    await s.run()
    expect((await rows(s, wrongName))[0]).toMatchObject({ status: 'failed', error_class: 'tls' })
  })
})
