// The controls of a webhook: the delivery records list (filters, pagination, newest first), a test
// send (any type of the catalog, whatever the filter, never counted), a manual retry, recovery of
// what was skipped or failed, and the concurrency caps with first attempts ahead of retries.
import { afterAll, describe, expect, test } from 'bun:test'
import { CONTACT_EXAMPLE } from '../../../src/modules/crm/index.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver, type Answer, type Receiver } from '../../helpers/receiver.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

interface Setup {
  app: TestApp
  org: SeededOrg
  receiver: Receiver
  send(method: string, path: string, body?: unknown, auth?: Record<string, string>): Promise<Response>
  run(): Promise<void>
  hook(events?: string[], path?: string): Promise<string>
  ticket(subject?: string): Promise<void>
}

async function setUp(answer?: (r: { path: string }, i: number) => Answer, settings: Record<string, string> = {}): Promise<Setup> {
  const receiver = await startReceiver(answer)
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...settings }, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca })
  const org = await seedOrganization(app, 'acme')
  await allowWebhookCidrs(app, org.org.id)
  cleanups.push(
    () => receiver.stop(),
    () => app.close(),
  )
  const send = (method: string, path: string, body?: unknown, auth = org.users.admin.auth) =>
    app.request(path, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    app,
    org,
    receiver,
    send,
    async run() {
      await app.webhooks.pump()
      await app.webhooks.settled()
    },
    async hook(events = ['ticket.*'], path = '/hook') {
      const response = await send('POST', '/api/v1/webhooks', { url: receiver.url(path), events, secret: 'sixteen-chars-ok!' })
      expect(response.status).toBe(201)
      return (await json<{ id: string }>(response)).id
    },
    async ticket(subject = 'Printer on fire') {
      expect((await send('POST', '/api/v1/tickets', { subject })).status).toBe(201)
    },
  }
}

interface Record_ {
  id: string
  event_id: string
  event_type: string
  status: string
  attempt: number
  trigger: string
  response_code: number | null
  error: { class: string; message: string } | null
}
type List = { deliveries: Record_[]; next_page_token: string }

describe('GET /api/v1/webhooks/{id}/deliveries', () => {
  test('newest first, paginated, filtered by status and event_id; another organization sees 404', async () => {
    const s = await setUp((_, i) => ({ status: i % 2 === 0 ? 200 : 500 }))
    const id = await s.hook()
    for (let i = 0; i < 4; i++) {
      await s.ticket(`Ticket ${i}`)
      await s.run()
      s.app.clock.advance(1000)
    }
    const all = await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries`))
    // 4 first attempts (2 failed) and the 2 retries they queued.
    expect(all.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [2, 'pending'],
      [1, 'failed'],
      [1, 'success'],
      [2, 'pending'],
      [1, 'failed'],
      [1, 'success'],
    ])
    expect(all.deliveries[1]).toMatchObject({
      event_type: 'ticket.created',
      trigger: 'event',
      response_code: 500,
      error: { class: 'http_status', message: 'answered 500' },
    })
    const failed = await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries?status=failed`))
    expect(failed.deliveries.map((d) => d.status)).toEqual(['failed', 'failed'])
    const eventId = failed.deliveries[0]!.event_id
    const ofEvent = await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries?event_id=${eventId}`))
    expect(ofEvent.deliveries.map((d) => [d.event_id, d.attempt])).toEqual([
      [eventId, 2],
      [eventId, 1],
    ])
    const page1 = await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries?page_size=4`))
    const page2 = await json<List>(
      await s.send('GET', `/api/v1/webhooks/${id}/deliveries?page_size=4&page_token=${encodeURIComponent(page1.next_page_token)}`),
    )
    expect([...page1.deliveries, ...page2.deliveries].map((d) => d.id)).toEqual(all.deliveries.map((d) => d.id))
    expect((await s.send('GET', `/api/v1/webhooks/${id}/deliveries?status=lost`)).status).toBe(400)
    const other = await seedOrganization(s.app, 'globex')
    expect((await s.send('GET', `/api/v1/webhooks/${id}/deliveries`, undefined, other.users.super_admin.auth)).status).toBe(404)
  })
})

describe('POST /api/v1/webhooks/{id}/test', () => {
  test("sends the type's documented example data, whatever the filter, and answers with the record", async () => {
    const s = await setUp()
    const id = await s.hook(['user.*'])
    const response = await s.send('POST', `/api/v1/webhooks/${id}/test`, { event_type: 'crm.contact.created' })
    expect(response.status).toBe(200)
    const record = await json<Record_>(response)
    expect(record).toMatchObject({ event_type: 'crm.contact.created', status: 'success', attempt: 1, trigger: 'test', response_code: 200 })
    const body = JSON.parse(s.receiver.received[0]!.body) as { id: string; type: string; data: Record<string, unknown> }
    expect([body.id, body.type, body.data.test]).toEqual([record.event_id, 'crm.contact.created', true])
    // The Contact component's own example, whole (event-schemas.test.ts checks every type against the document).
    expect(body.data).toEqual({ contact: CONTACT_EXAMPLE, test: true })
    // Not fanned out to other webhooks of the organization.
    const everything = await s.hook(['*'], '/other')
    await s.send('POST', `/api/v1/webhooks/${id}/test`, { event_type: 'ticket.created' })
    await s.run()
    expect(s.receiver.received.filter((r) => r.path === '/other')).toHaveLength(0)
    expect((await json<List>(await s.send('GET', `/api/v1/webhooks/${everything}/deliveries`))).deliveries).toHaveLength(0)
  })

  test('an unknown type is 400 naming event_type; a failing test is not retried and does not count toward disabling', async () => {
    const s = await setUp(() => ({ status: 500 }))
    const id = await s.hook()
    const bad = await s.send('POST', `/api/v1/webhooks/${id}/test`, { event_type: 'ticket.exploded' })
    expect(bad.status).toBe(400)
    expect((await json<{ errors: { field: string }[] }>(bad)).errors.map((e) => e.field)).toEqual(['event_type'])
    for (let i = 0; i < 8; i++)
      expect((await json<Record_>(await s.send('POST', `/api/v1/webhooks/${id}/test`, { event_type: 'ticket.created' }))).status).toBe(
        'failed',
      )
    const webhook = await json<{ enabled: boolean; consecutive_failures: number }>(await s.send('GET', `/api/v1/webhooks/${id}`))
    expect([webhook.enabled, webhook.consecutive_failures]).toEqual([true, 0])
    expect((await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries?status=pending`))).deliveries).toHaveLength(0)
  })
})

describe('POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', () => {
  test('sends the same event once more as the next attempt; a pending one is 409, an unknown one 404', async () => {
    const s = await setUp((_, i) => ({ status: i === 0 ? 500 : 200 }))
    const id = await s.hook()
    await s.ticket()
    await s.run()
    const [pending, failed] = (await json<List>(await s.send('GET', `/api/v1/webhooks/${id}/deliveries`))).deliveries
    expect([pending!.status, failed!.status]).toEqual(['pending', 'failed'])
    expect((await s.send('POST', `/api/v1/webhooks/${id}/deliveries/${pending!.id}/retry`)).status).toBe(409)
    const retried = await json<Record_>(await s.send('POST', `/api/v1/webhooks/${id}/deliveries/${failed!.id}/retry`))
    expect(retried).toMatchObject({ event_id: failed!.event_id, attempt: 3, trigger: 'retry', status: 'success' })
    expect(s.receiver.received.map((r) => r.headers['webhook-id'])).toEqual([failed!.event_id, failed!.event_id])
    expect(s.receiver.received[1]!.body).toBe(s.receiver.received[0]!.body)
    expect((await s.send('POST', `/api/v1/webhooks/${id}/deliveries/dlv_00000000000000000000000000/retry`)).status).toBe(404)
  })
})

describe('POST /api/v1/webhooks/{id}/recover', () => {
  test('after a disabled spell, re-sends what was skipped or failed for good, not what was delivered', async () => {
    let up = true
    const s = await setUp(() => ({ status: up ? 200 : 500 }), { WEBHOOK_RETRY_SCHEDULE: '0' })
    const id = await s.hook()
    const since = new Date(s.app.clock.now()).toISOString()
    await s.ticket('delivered')
    await s.run()
    up = false
    await s.ticket('failed, which disables it')
    await s.run()
    expect((await json<{ enabled: boolean; disabled_reason: string }>(await s.send('GET', `/api/v1/webhooks/${id}`))).disabled_reason).toBe(
      'exhausted',
    )
    await s.ticket('skipped 1')
    await s.ticket('skipped 2')
    await s.run()
    expect(s.receiver.received).toHaveLength(2)

    expect((await s.send('POST', `/api/v1/webhooks/${id}/recover`, { since })).status).toBe(409)
    up = true
    expect((await s.send('PATCH', `/api/v1/webhooks/${id}`, { enabled: true })).status).toBe(200)
    const recovered = await json<{ queued: number }>(await s.send('POST', `/api/v1/webhooks/${id}/recover`, { since }))
    expect(recovered.queued).toBe(3)
    await s.run()
    const subjects = s.receiver.received
      .slice(2)
      .map((r) => (JSON.parse(r.body) as { data: { ticket: { subject: string } } }).data.ticket.subject)
    // Up to WEBHOOK_CONCURRENCY_PER_WEBHOOK (4) are in flight at once: they may arrive in any order.
    expect(subjects.sort()).toEqual(['failed, which disables it', 'skipped 1', 'skipped 2'])
    // Nothing left to recover.
    expect((await json<{ queued: number }>(await s.send('POST', `/api/v1/webhooks/${id}/recover`, { since }))).queued).toBe(0)
  })

  test('since: RFC 3339, at most 14 days back, not in the future', async () => {
    const s = await setUp()
    const id = await s.hook()
    const at = (ms: number) => new Date(s.app.clock.now() + ms).toISOString()
    for (const since of ['yesterday', at(-15 * 86_400_000), at(60_000)]) {
      const response = await s.send('POST', `/api/v1/webhooks/${id}/recover`, { since })
      expect(response.status).toBe(400)
      expect((await json<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field)).toEqual(['since'])
    }
    expect((await s.send('POST', `/api/v1/webhooks/${id}/recover`, { since: at(-14 * 86_400_000 + 1000) })).status).toBe(200)
  })
})

describe('concurrency', () => {
  test('at most 4 sends in flight to one webhook, WEBHOOK_CONCURRENCY in all', async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 150 }), { WEBHOOK_CONCURRENCY: '6' })
    await s.hook(['ticket.*'], '/a')
    await s.hook(['ticket.*'], '/b')
    for (let i = 0; i < 10; i++) await s.ticket(`Ticket ${i}`)
    await s.run()
    expect(s.receiver.received).toHaveLength(20)
    expect(s.receiver.load.max).toBe(6)
    const one = await setUp(() => ({ status: 200, delayMs: 150 }))
    await one.hook()
    for (let i = 0; i < 10; i++) await one.ticket(`Ticket ${i}`)
    await one.run()
    expect(one.receiver.received).toHaveLength(10)
    expect(one.receiver.load.max).toBe(4)
  })

  test('WEBHOOK_CONCURRENCY_PER_WEBHOOK sets the per-webhook cap', async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 150 }), { WEBHOOK_CONCURRENCY_PER_WEBHOOK: '2' })
    await s.hook()
    for (let i = 0; i < 6; i++) await s.ticket(`Ticket ${i}`)
    await s.run()
    expect(s.receiver.received).toHaveLength(6)
    expect(s.receiver.load.max).toBe(2)
  })

  test("one webhook's backlog does not hold up another webhook: its first attempt goes in the first wave", async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 20 }))
    const busy = await s.hook(['ticket.*'], '/busy')
    for (let i = 0; i < 150; i++) await s.ticket(`Backlog ${i}`)
    // The backlog is older than anything the second webhook will get: it comes first in due order.
    s.app.clock.advance(1000)
    await s.hook(['ticket.*'], '/quiet')
    const quietOnly = await s.send('PATCH', `/api/v1/webhooks/${busy}`, { events: ['user.*'] })
    expect(quietOnly.status).toBe(200)
    await s.ticket('For the quiet one')
    await s.app.webhooks.pump()
    // Sent at once: 4 of the backlog (its cap) and the quiet webhook's delivery.
    const firstWave = s.receiver.received.length
    await s.app.webhooks.settled()
    const quietAt = s.receiver.received.findIndex((r) => r.path === '/quiet')
    expect(quietAt).toBeGreaterThanOrEqual(0)
    expect(quietAt).toBeLessThan(5)
    expect(firstWave).toBeLessThanOrEqual(5)
    expect(s.receiver.received.filter((r) => r.path === '/busy')).toHaveLength(150)
  })

  test('first attempts go ahead of due retries', async () => {
    const s = await setUp((r) => ({ status: r.path === '/dead' ? 500 : 200 }), { WEBHOOK_CONCURRENCY: '1' })
    await s.hook(['ticket.*'], '/dead')
    await s.ticket('fails')
    await s.run()
    s.app.clock.advance(10 * 60_000)
    await s.hook(['ticket.*'], '/alive')
    await s.ticket('new')
    await s.run()
    // The retry of the dead receiver was due first, but the new event's first attempts went before it.
    expect(s.receiver.received.map((r) => `${r.path} ${r.headers['x-service-attempt']}`)).toEqual([
      '/dead 1',
      '/dead 1',
      '/alive 1',
      '/dead 2',
    ])
  })
})
