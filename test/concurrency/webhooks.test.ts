// The outbox over two instances: both dispatchers claiming at once send each attempt exactly once;
// failures recorded by both at once disable the webhook once; recoveries and manual retries sent at
// once queue each event once and number each attempt apart. Two instances on one PostgreSQL, one
// app on SQLite (webhook-cluster.ts).
import { describe, expect, test } from 'bun:test'
import { eventually, until } from '../helpers/wait.ts'
import { json, TEST_ENGINE, WRITERS, webhookCluster } from './webhook-cluster.ts'

const SLOW_MS = 120_000
const ticket = (i: number) => ({ subject: `Ticket ${i}` })

interface Delivery {
  id: string
  event_id: string
  attempt: number
  status: string
  trigger: string
}

describe(`webhook deliveries over several instances (${TEST_ENGINE})`, () => {
  test(
    'events written on every instance, every dispatcher claiming: each attempt reaches the receiver exactly once',
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      await c.hook()
      c.start()
      let events = 0
      for (let round = 0; round < 3; round++) {
        const made = await c.many(WRITERS, (i) => c.send('POST', '/api/v1/tickets', ticket(i)))
        expect(made.map((r) => r.status)).toEqual(Array(WRITERS).fill(201))
        events += WRITERS
      }
      await until(() => c.receiver.received.length >= events, `${events} deliveries`, 30_000)
      await c.settled()
      // Anything sent twice would arrive meanwhile.
      await Bun.sleep(300)
      expect(c.receiver.received).toHaveLength(events)
      expect(new Set(c.deliveryIds()).size).toBe(events)
      const rows = await c.db.raw.all<{ status: string }>('SELECT status FROM webhook_deliveries')
      expect(rows.map((r) => r.status)).toEqual(Array(events).fill('success'))
    },
    SLOW_MS,
  )

  test(
    'every attempt failing on every dispatcher at once: the webhook is disabled once a round, one webhook.disabled record each',
    async () => {
      const c = await webhookCluster(() => ({ status: 500 }), { WEBHOOK_RETRY_SCHEDULE: '0' })
      const id = await c.hook()
      c.start()
      const rounds = 3
      const failedRows = async () =>
        Number((await c.db.raw.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'failed'"))!.n)
      for (let round = 0; round < rounds; round++) {
        const before = await failedRows()
        if (round > 0) expect((await c.send('PATCH', `/api/v1/webhooks/${id}`, { enabled: true })).status).toBe(200)
        const made = await c.many(2 * WRITERS, (i) => c.send('POST', '/api/v1/tickets', ticket(i)))
        expect(made.map((r) => r.status)).toEqual(Array(2 * WRITERS).fill(201))
        await eventually('the webhook disabled', async () => {
          const webhook = await json<{ enabled: boolean; disabled_reason: string }>(await c.send('GET', `/api/v1/webhooks/${id}`))
          return webhook.enabled ? undefined : webhook
        })
        await c.settled()
        const webhook = await json<{ enabled: boolean; disabled_reason: string }>(await c.send('GET', `/api/v1/webhooks/${id}`))
        expect([webhook.enabled, webhook.disabled_reason]).toEqual([false, 'exhausted'])
        // Every failure since it was turned on is counted, once.
        const state = await c.db.raw.get<{ n: number }>('SELECT consecutive_failures AS n FROM webhooks WHERE id = ?', [id])
        expect(Number(state!.n)).toBe((await failedRows()) - before)
      }
      const disabled = await c.audit('webhook.disabled')
      expect(disabled.map((r) => r.reason)).toEqual(Array(rounds).fill('exhausted'))
    },
    SLOW_MS,
  )

  test(
    'recoveries sent at once: each undelivered event is queued once and sent once',
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      const id = await c.hook()
      for (let round = 0; round < 3; round++) {
        // Each round's own events: those of the rounds before are not found again.
        c.clock.advance(1000)
        const since = new Date(c.clock.now()).toISOString()
        expect((await c.send('PATCH', `/api/v1/webhooks/${id}`, { enabled: false })).status).toBe(200)
        // Written while it is off: skipped, kept for a recovery.
        for (let i = 0; i < 8; i++) expect((await c.send('POST', '/api/v1/tickets', ticket(i))).status).toBe(201)
        expect((await c.send('PATCH', `/api/v1/webhooks/${id}`, { enabled: true })).status).toBe(200)
        const recovered = await c.many(WRITERS, () => c.send('POST', `/api/v1/webhooks/${id}/recover`, { since }))
        expect(recovered.map((r) => r.status)).toEqual(Array(WRITERS).fill(200))
        const queued = (await Promise.all(recovered.map((r) => json<{ queued: number }>(r)))).map((r) => r.queued)
        expect(queued.reduce((a, b) => a + b, 0)).toBe(8)
      }
      c.start()
      await until(() => c.receiver.received.length >= 24, '24 recovered deliveries', 30_000)
      await c.settled()
      await Bun.sleep(300)
      const events = c.receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id)
      expect(events).toHaveLength(24)
      expect(new Set(events).size).toBe(24)
    },
    SLOW_MS,
  )

  test(
    'manual retries of one delivery sent at once: each is its own attempt, numbered apart, and sent once',
    async () => {
      const c = await webhookCluster((_, i) => ({ status: i === 0 ? 500 : 200 }), { WEBHOOK_RETRY_SCHEDULE: '0' })
      const id = await c.hook()
      expect((await c.send('POST', '/api/v1/tickets', ticket(0))).status).toBe(201)
      await c.instances[0]!.webhooks.pump()
      await c.settled()
      const [failed] = (await json<{ deliveries: Delivery[] }>(await c.send('GET', `/api/v1/webhooks/${id}/deliveries`))).deliveries
      expect(failed!.status).toBe('failed')
      const retried = await c.many(WRITERS, () => c.send('POST', `/api/v1/webhooks/${id}/deliveries/${failed!.id}/retry`))
      expect(retried.map((r) => r.status)).toEqual(Array(WRITERS).fill(200))
      const records = await Promise.all(retried.map((r) => json<Delivery>(r)))
      expect(records.map((r) => r.status)).toEqual(Array(WRITERS).fill('success'))
      expect(records.map((r) => r.attempt).sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS }, (_, i) => i + 2))
      await Bun.sleep(300)
      // The first attempt and each retry, once.
      expect(c.receiver.received).toHaveLength(WRITERS + 1)
      expect(new Set(c.deliveryIds()).size).toBe(WRITERS + 1)
    },
    SLOW_MS,
  )
})
