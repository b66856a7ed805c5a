// The dispatcher's machinery, seen from the database and a real receiver: claims run ahead of the
// sends (three times the per-webhook cap leased, the rest left for later), shutdown gives back claims
// that never started, a claim that waited in the ready queue is extended before it is sent, and a
// changed secret signs the very next delivery (opened secrets are kept, keyed by what was sealed); a
// webhook disabled by a 410 sends nothing more of what it had ready.
import { afterAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver, type Answer, type Receiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

/** WEBHOOK_CONCURRENCY_PER_WEBHOOK's default. */
const PER_WEBHOOK_CONCURRENCY = 4
const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

interface Setup {
  app: TestApp
  receiver: Receiver
  send(method: string, path: string, body?: unknown): Promise<Response>
  hook(secret?: string): Promise<string>
  tickets(count: number): Promise<void>
}

async function setUp(answer: (r: { path: string }, i: number) => Answer, settings: Record<string, string> = {}): Promise<Setup> {
  const receiver = await startReceiver(answer)
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...settings }, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca })
  const org = await seedOrganization(app, 'acme')
  await allowWebhookCidrs(app, org.org.id)
  cleanups.push(
    () => receiver.stop(),
    () => app.close(),
  )
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...org.users.admin.auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    app,
    receiver,
    send,
    async hook(secret = 'the-first-secret-0001') {
      const response = await send('POST', '/api/v1/webhooks', { url: receiver.url('/hook'), events: ['ticket.*'], secret })
      expect(response.status).toBe(201)
      return (await json<{ id: string }>(response)).id
    },
    async tickets(count: number) {
      for (let i = 0; i < count; i++) expect((await send('POST', '/api/v1/tickets', { subject: `Ticket ${i}` })).status).toBe(201)
    },
  }
}

const leases = (app: TestApp) =>
  app.context.db.raw.all<{ status: string; lease_until: number | null }>(
    "SELECT status, lease_until FROM webhook_deliveries WHERE status = 'pending' ORDER BY created_at, id",
  )

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition(); await Bun.sleep(5))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
}

describe('claims ahead of the sends', () => {
  test('three times the per-webhook cap is leased at once; the rest stays unclaimed; all arrive, 4 at a time', async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 100 }))
    await s.hook()
    await s.tickets(20)
    await s.app.webhooks.pump()
    const claimed = (await leases(s.app)).filter((r) => r.lease_until !== null)
    expect(claimed).toHaveLength(3 * PER_WEBHOOK_CONCURRENCY)
    expect(s.app.webhooks.inFlightCount).toBe(3 * PER_WEBHOOK_CONCURRENCY)
    await s.app.webhooks.settled()
    expect(s.receiver.received).toHaveLength(20)
    expect(s.receiver.load.max).toBe(PER_WEBHOOK_CONCURRENCY)
    expect(await leases(s.app)).toEqual([])
  })

  test('stop gives back at once the claims that never started; the ones in flight finish and are recorded', async () => {
    const s = await setUp(() => ({ status: 200, delayMs: 200 }))
    await s.hook()
    await s.tickets(10)
    await s.app.webhooks.pump()
    await until(() => s.receiver.received.length === PER_WEBHOOK_CONCURRENCY, 'the first sends')
    await s.app.webhooks.stop(5000)
    expect(s.receiver.received).toHaveLength(PER_WEBHOOK_CONCURRENCY)
    // Due again at once for the next start: no lease left on any of them.
    expect(await leases(s.app)).toEqual(
      Array.from({ length: 10 - PER_WEBHOOK_CONCURRENCY }, () => ({ status: 'pending', lease_until: null })),
    )
    const done = (await s.app.context.db.raw.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'success'"))!.n
    expect(done).toBe(PER_WEBHOOK_CONCURRENCY)
  })

  test('a claim that waited in the ready queue until its lease ran low is extended before it is sent', async () => {
    // Timeout 1 s: a claim holds 2 x 1 s + 5 s = 7 s, and a send may start only with 1 s + 5 s of it left.
    const s = await setUp(() => ({ status: 200, delayMs: 300 }), { WEBHOOK_TIMEOUT_MS: '1000' })
    await s.hook()
    await s.tickets(PER_WEBHOOK_CONCURRENCY + 1)
    const claimedAt = s.app.clock.now()
    await s.app.webhooks.pump()
    const lastLease = async () =>
      (await s.app.context.db.raw.get<{ lease_until: number | null }>(
        'SELECT lease_until FROM webhook_deliveries ORDER BY created_at DESC, id DESC LIMIT 1',
      ))!.lease_until
    expect(await lastLease()).toBe(claimedAt + 7000)
    // The last one waits behind the cap while 2 s pass: only 5 s of its claim would be left.
    s.app.clock.advance(2000)
    await until(() => s.receiver.received.length === PER_WEBHOOK_CONCURRENCY + 1, 'the fifth send')
    expect(await lastLease()).toBe(claimedAt + 2000 + 7000)
    await s.app.webhooks.settled()
    expect(await leases(s.app)).toEqual([])
  })
})

describe('disabled while deliveries wait', () => {
  test('410 Gone: what was ready for the webhook is not sent but skipped, kept for recovery', async () => {
    const s = await setUp(() => ({ status: 410, delayMs: 100 }))
    await s.hook()
    await s.tickets(10)
    await s.app.webhooks.pump()
    await s.app.webhooks.settled()
    // Only the sends already under way when the first 410 came back.
    expect(s.receiver.received).toHaveLength(PER_WEBHOOK_CONCURRENCY)
    const byStatus = await s.app.context.db.raw.all<{ status: string; n: number }>(
      'SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status ORDER BY status',
    )
    expect(byStatus).toEqual([
      { status: 'failed', n: PER_WEBHOOK_CONCURRENCY },
      { status: 'skipped', n: 10 - PER_WEBHOOK_CONCURRENCY },
    ])
  })
})

describe('secrets', () => {
  test('a new secret signs the very next delivery', async () => {
    const s = await setUp(() => ({ status: 200 }))
    const id = await s.hook('the-first-secret-0001')
    await s.tickets(1)
    await s.app.webhooks.pump()
    await s.app.webhooks.settled()
    expect((await s.send('PATCH', `/api/v1/webhooks/${id}`, { secret: 'the-second-secret-002' })).status).toBe(200)
    await s.tickets(1)
    await s.app.webhooks.pump()
    await s.app.webhooks.settled()
    const signatures = s.receiver.received.map((r) => r.headers['x-service-signature'])
    const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
    expect(signatures).toEqual([
      sign('the-first-secret-0001', s.receiver.received[0]!.body),
      sign('the-second-secret-002', s.receiver.received[1]!.body),
    ])
  })
})
