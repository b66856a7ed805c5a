// The dispatcher's lifecycle and housekeeping: shutdown waits for sends in flight, and past its grace
// gives unfinished claims back so the next start sends them at once; woken after a commit it sends
// attempt 1 without waiting for the cron loop; webhook_prune keeps records WEBHOOK_RETENTION_DAYS.
import { afterAll, describe, expect, test } from 'bun:test'
import { webhookPruneTask } from '../../../src/modules/webhooks/index.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver, type Answer } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function setUp(answer: () => Answer, settings: Record<string, string> = {}) {
  const receiver = await startReceiver(answer)
  const app: TestApp = await makeTestApp(settings, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca })
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
  const hook = await json<{ id: string }>(
    await send('POST', '/api/v1/webhooks', { url: receiver.url(), events: ['ticket.*'], secret: 'sixteen-chars-ok!' }),
  )
  return { app, receiver, send, webhookId: hook.id }
}

const statuses = (app: TestApp) =>
  app.context.db.raw.all<{ status: string; lease_until: number | null }>(
    'SELECT status, lease_until FROM webhook_deliveries ORDER BY created_at',
  )

describe('dispatcher lifecycle', () => {
  test('started, it sends attempt 1 as soon as the transaction commits (no cron tick needed)', async () => {
    const { app, receiver, send } = await setUp(() => ({ status: 200 }))
    app.webhooks.start()
    expect((await send('POST', '/api/v1/tickets', { subject: 'Now' })).status).toBe(201)
    for (const deadline = Date.now() + 15_000; receiver.received.length === 0 && Date.now() < deadline; ) await Bun.sleep(5)
    expect(receiver.received).toHaveLength(1)
    await app.webhooks.settled()
    expect((await statuses(app)).map((r) => r.status)).toEqual(['success'])
  })

  test('stop waits for a send in flight to finish and records it', async () => {
    const { app, send } = await setUp(() => ({ status: 200, delayMs: 300 }))
    await send('POST', '/api/v1/tickets', { subject: 'In flight' })
    await app.webhooks.pump()
    expect(app.webhooks.inFlightCount).toBe(1)
    await app.webhooks.stop(5000)
    expect(await statuses(app)).toEqual([{ status: 'success', lease_until: null }])
  })

  test('past the grace, stop aborts the send and gives the claim back: due again at once', async () => {
    const { app, send } = await setUp(() => ({ status: 200, delayMs: 2000 }))
    await send('POST', '/api/v1/tickets', { subject: 'Too slow' })
    await app.webhooks.pump()
    await app.webhooks.stop(100)
    expect(await statuses(app)).toEqual([{ status: 'pending', lease_until: null }])
  })
})

describe('webhook_prune', () => {
  test('deletes records older than WEBHOOK_RETENTION_DAYS, never pending ones', async () => {
    const { app, send } = await setUp(() => ({ status: 500 }), { WEBHOOK_RETENTION_DAYS: '2' })
    await send('POST', '/api/v1/tickets', { subject: 'Old' })
    await app.webhooks.pump()
    await app.webhooks.settled()
    expect((await statuses(app)).map((r) => r.status)).toEqual(['failed', 'pending'])
    const log = createLogger({ level: 'error', sink: memorySink() })
    const task = webhookPruneTask(app.context)
    const run = (now: number) => task.run({ now, log, signal: new AbortController().signal })
    expect(await run(app.clock.now() + 2 * 86_400_000)).toMatchObject({ deliveries_deleted: 0 })
    expect(await run(app.clock.now() + 2 * 86_400_000 + 1)).toMatchObject({ deliveries_deleted: 1 })
    expect((await statuses(app)).map((r) => r.status)).toEqual(['pending'])
  })
})
