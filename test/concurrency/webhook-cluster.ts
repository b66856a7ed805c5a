// The webhook concurrency tests' cluster: as makeCluster (test/helpers/cluster.ts), two instances on one
// PostgreSQL (one app on SQLite), here sharing one fake clock at the real time and trusting the test
// receiver's certificate, the organization allowed to send to loopback, and a webhook to the receiver.
import { afterEach } from 'bun:test'
import type { SettingName } from '../../src/config.ts'
import { allowWebhookCidrs } from '../modules/webhooks/allow.ts'
import { json, makeTestApp, type TestApp } from '../helpers/app.ts'
import { FakeClock } from '../helpers/clock.ts'
import { WRITERS } from '../helpers/cluster.ts'
import { clusterSettings, TEST_ENGINE } from '../helpers/engine.ts'
import { type Answer, type Received, startReceiver } from '../helpers/receiver.ts'
import { seedOrganization } from '../helpers/seed.ts'

export { json, TEST_ENGINE, WRITERS }

// Each test's instances close when it ends: many open at once would exhaust PostgreSQL's connections.
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}, 60_000)

export type Settings = Partial<Record<SettingName, string>>

export async function webhookCluster(answer: (request: Received, index: number) => Answer, settings: Settings = {}) {
  const receiver = await startReceiver(answer)
  cleanups.push(() => receiver.stop())
  const clock = new FakeClock(Date.now())
  const start = async (shared: Settings) => {
    const app = await makeTestApp(shared, { clock, webhookCa: receiver.ca })
    cleanups.push(() => app.close())
    return app
  }
  const instances: TestApp[] = []
  if (TEST_ENGINE === 'postgres') {
    const shared = { ...(await clusterSettings()), ...settings }
    // One after the other: the first start migrates, the second finds it done.
    instances.push(await start(shared), await start(shared))
  } else instances.push(await start(settings))
  const { org, users } = await seedOrganization(instances[0]!, 'acme')
  await allowWebhookCidrs(instances[0]!, org.id)
  let turn = 0
  /** A request to the next instance in turn, as the organization's admin. */
  const send = (method: string, path: string, body?: unknown) =>
    instances[turn++ % instances.length]!.request(path, {
      method,
      headers: { ...users.admin.auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const many = (count: number, request: (i: number) => Promise<Response>) =>
    Promise.all(Array.from({ length: count }, (_, i) => request(i)))
  const hook = async (events = ['ticket.*']) => {
    const response = await send('POST', '/api/v1/webhooks', { url: receiver.url(), events, secret: 'sixteen-chars-ok!' })
    if (response.status !== 201) throw new Error(`webhook not created: ${response.status} ${await response.text()}`)
    return (await json<{ id: string }>(response)).id
  }
  const db = instances[0]!.context.db
  return {
    instances,
    clock,
    org,
    receiver,
    send,
    many,
    hook,
    db,
    /** Starts every instance's dispatcher. */
    start: () => {
      for (const app of instances) app.webhooks.start()
    },
    /** Until no dispatcher has anything in flight, ready or to record. */
    settled: () => Promise.all(instances.map((app) => app.webhooks.settled())),
    /** Delivery ids as the receiver got them (the x-service-delivery-id header). */
    deliveryIds: () => receiver.received.map((r) => r.headers['x-service-delivery-id']!),
    /** The organization's audit records of `event`, oldest first, as GET /api/v1/audit-logs lists them. */
    audit: async (event: string) => {
      const list = await json<{ audit_logs: Array<{ seq: number; details: Record<string, unknown>; reason: string | null }> }>(
        await send('GET', `/api/v1/audit-logs?event=${event}&page_size=100`),
      )
      return list.audit_logs.sort((a, b) => a.seq - b.seq)
    },
  }
}

export type WebhookCluster = Awaited<ReturnType<typeof webhookCluster>>
