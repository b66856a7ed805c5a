// Webhook dispatchers of two instances on one PostgreSQL and one Redis: every delivery attempt reaches
// the receiver exactly once while both claim at once; an event committed on A is sent by B's dispatcher
// alone (the wake-up crosses instances through Redis); claims of two transactions running at
// the same time take different rows (FOR UPDATE SKIP LOCKED); and a claim whose instance died is sent
// by the other once its lease has run out.
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { numbered } from '../../../src/db/postgres.ts'
import { RedisWakeups } from '../../../src/modules/webhooks/index.ts'
import { claimDue } from '../../../src/modules/webhooks/claim-due.ts'
import { claimLeaseUntil } from '../../../src/modules/webhooks/queue-delivery.ts'
import { claimStatement } from '../../../src/modules/webhooks/store/dispatch.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { clusterSettings } from '../../helpers/engine.ts'
import { freePort } from '../../helpers/process.ts'
import { type Receiver, startReceiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../../helpers/services.ts'
import { until } from '../../helpers/wait.ts'
import { allowWebhookCidrs } from './allow.ts'

// Each test starts two instances on a fresh database (migrations, a signing key): slow on a busy machine.
setDefaultTimeout(90_000)

// Each test's instances close when it ends: many open at once would exhaust PostgreSQL's connections.
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}, 60_000)

/** An instance of the cluster: with REDIS_URL, runtime.ts wakes the dispatchers through Redis. */
function shared(app: TestApp): TestApp {
  expect(app.context.ports.wakeups).toBeInstanceOf(RedisWakeups)
  return app
}

interface Cluster {
  a: TestApp
  b: TestApp
  receiver: Receiver
  /** Creates `count` tickets, each through `on` (or alternately A and B). */
  tickets(count: number, on?: TestApp): Promise<void>
  deliveries(): Promise<Array<{ status: string; lease_until: number | null }>>
}

async function cluster(overrides: Record<string, string> = {}): Promise<Cluster> {
  const receiver = await startReceiver()
  cleanups.push(() => receiver.stop())
  const settings = { ...(await clusterSettings()), ...overrides }
  const start = async () => {
    const app = shared(await makeTestApp(settings, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca }))
    cleanups.push(() => app.close())
    return app
  }
  const a = await start()
  const b = await start()
  const { org, users } = await seedOrganization(a)
  await allowWebhookCidrs(a, org.id)
  const send = (app: TestApp, path: string, body: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { ...users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const hook = await send(a, '/api/v1/webhooks', {
    url: receiver.url('/hook'),
    events: ['ticket.created'],
    secret: 'the-cluster-secret-01',
  })
  expect(hook.status).toBe(201)
  return {
    a,
    b,
    receiver,
    async tickets(count, on) {
      for (let i = 0; i < count; i++)
        expect((await send(on ?? (i % 2 === 0 ? a : b), '/api/v1/tickets', { subject: `Ticket ${i}` })).status).toBe(201)
    },
    deliveries: () =>
      a.context.db.raw.all<{ status: string; lease_until: number | null }>(
        'SELECT status, lease_until FROM webhook_deliveries ORDER BY created_at, id',
      ),
  }
}

const deliveryIds = (receiver: Receiver) => receiver.received.map((r) => r.headers['x-service-delivery-id'])

describe.skipIf(!postgresAvailable || !redisAvailable)('two dispatchers on one database', () => {
  test('60 events created on both instances, both dispatchers claiming: each attempt is sent exactly once', async () => {
    const c = await cluster()
    c.a.webhooks.start()
    c.b.webhooks.start()
    await Promise.all([c.tickets(30, c.a), c.tickets(30, c.b)])
    await until(() => c.receiver.received.length >= 60, '60 deliveries')
    await Promise.all([c.a.webhooks.settled(), c.b.webhooks.settled()])
    // Anything sent twice would arrive meanwhile.
    await Bun.sleep(300)
    expect(c.receiver.received).toHaveLength(60)
    expect(new Set(deliveryIds(c.receiver)).size).toBe(60)
    const events = new Set(c.receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id))
    expect(events.size).toBe(60)
    expect(await c.deliveries()).toEqual(Array.from({ length: 60 }, () => ({ status: 'success', lease_until: null })))
  })

  test("an event committed on A is sent by B's dispatcher, woken through Redis, A's not running", async () => {
    const c = await cluster()
    c.b.webhooks.start()
    // A's dispatcher stopped, and no cron loop runs in tests, and B's dispatcher never polls: only B's
    // wake-up can send it, so a generous wait proves it as well as a short one (the benchmark times it).
    await c.a.webhooks.stop()
    await c.b.webhooks.settled()
    await c.tickets(1, c.a)
    await until(() => c.receiver.received.length === 1, 'the delivery sent by B', 20_000)
    await c.b.webhooks.settled()
    expect(await c.deliveries()).toEqual([{ status: 'success', lease_until: null }])
  })

  test('two claims at the same moment on PostgreSQL take different rows, neither waits for the other', async () => {
    const c = await cluster()
    await c.tickets(6, c.a)
    const sql = new Bun.SQL(c.a.config.databaseUrl!)
    const [first, second] = [await sql.reserve(), await sql.reserve()]
    try {
      const claim = numbered(claimStatement('attempt = 1', 'postgres'))
      const webhookId = (await c.a.context.db.raw.get<{ webhook_id: string }>('SELECT webhook_id FROM webhook_deliveries'))!.webhook_id
      const now = c.a.clock.now()
      await first.unsafe('BEGIN')
      await second.unsafe('BEGIN')
      const one = (await first.unsafe(claim, [webhookId, now, now, 4])) as Array<{ id: string }>
      // Without SKIP LOCKED this would wait for the first transaction, then return the same rows.
      const two = (await second.unsafe(claim, [webhookId, now, now, 10])) as Array<{ id: string }>
      expect(one).toHaveLength(4)
      expect(two).toHaveLength(2)
      expect(new Set([...one, ...two].map((r) => r.id)).size).toBe(6)
    } finally {
      await first.unsafe('ROLLBACK')
      await second.unsafe('ROLLBACK')
      first.release()
      second.release()
      await sql.close()
    }
  })

  test('a claim whose instance died is sent by the other once its lease has run out, and only then', async () => {
    const c = await cluster()
    await c.tickets(3, c.a)
    // A claims as its dispatcher does, then dies before sending anything.
    const now = c.a.clock.now()
    const leaseUntil = claimLeaseUntil(c.a.config.webhooks.timeoutMs, now)
    const claimed = await c.a.context.db.write('test.claim', (tx) => claimDue(tx, now, leaseUntil, { free: 10, freeFor: () => 10 }))
    expect(claimed).toHaveLength(3)
    c.b.webhooks.start()
    await c.b.webhooks.settled()
    expect(await c.b.webhooks.pump()).toBe(0)
    expect(c.receiver.received).toHaveLength(0)
    // B's cron tick after the lease ran out.
    c.b.clock.advance(leaseUntil - c.b.clock.now() + 1)
    expect(await c.b.webhooks.pump()).toBe(3)
    await c.b.webhooks.settled()
    expect(c.receiver.received).toHaveLength(3)
    expect(await c.deliveries()).toEqual(Array.from({ length: 3 }, () => ({ status: 'success', lease_until: null })))
  })

  test("with Redis unreachable no wake-up crosses, and B's cron tick finds what A queued", async () => {
    const c = await cluster({ REDIS_URL: `redis://127.0.0.1:${freePort()}` })
    c.b.webhooks.start()
    // Its first look at the queue (at start) is over before the event comes.
    await c.b.webhooks.settled()
    await c.tickets(1, c.a)
    await Bun.sleep(300)
    expect(c.receiver.received).toHaveLength(0)
    // The webhook_dispatch task, due once a second on B's clock.
    c.b.clock.advance(1000)
    await c.b.context.scheduler.tick()
    await c.b.webhooks.settled()
    expect(c.receiver.received).toHaveLength(1)
    expect(await c.deliveries()).toEqual([{ status: 'success', lease_until: null }])
  })
})
