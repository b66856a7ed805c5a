// The dispatcher's transaction run twice, as PostgreSQL's retry after a deadlock with another instance
// runs it (src/db/retry.ts): the first run rolled back, the second must still record every outcome the
// first took up, queue each next attempt once, and skip what a disabled webhook had ready. Nothing is
// lost to the run that rolled back, so nothing is sent twice once a lease runs out.
import { afterAll, expect, test } from 'bun:test'
import type { Database } from '../../../src/db/database.ts'
import { WebhookDispatcher } from '../../../src/modules/webhooks/index.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { type Answer, startReceiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

class RolledBack extends Error {}

/** `db`, but each dispatch transaction's block runs once more after a first run that rolled back. */
function runningTwice(db: Database): Database {
  return Object.assign(Object.create(db) as Database, {
    async write<T>(name: string, block: Parameters<Database['write']>[1]): Promise<T> {
      if (name === 'webhook.dispatch')
        await db
          .write(name, async (tx) => {
            await block(tx)
            throw new RolledBack()
          })
          .catch((error) => {
            if (!(error instanceof RolledBack)) throw error
          })
      return db.write(name, block) as Promise<T>
    },
  })
}

async function setUp(answer: (r: unknown, i: number) => Answer) {
  const receiver = await startReceiver(answer)
  const app: TestApp = await makeTestApp({}, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca })
  const { org, users } = await seedOrganization(app, 'acme')
  await allowWebhookCidrs(app, org.id)
  const { context } = app
  const dispatcher = new WebhookDispatcher({ ...context, db: runningTwice(context.db), version: 'test' }, { extraCa: receiver.ca })
  cleanups.push(
    () => receiver.stop(),
    () => app.close(),
    () => dispatcher.stop(1000),
  )
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await send('POST', '/api/v1/webhooks', { url: receiver.url(), events: ['ticket.*'], secret: 'sixteen-chars-ok!' })).status).toBe(
    201,
  )
  for (let i = 0; i < 10; i++) expect((await send('POST', '/api/v1/tickets', { subject: `Ticket ${i}` })).status).toBe(201)
  const statuses = () =>
    app.context.db.raw.all<{ attempt: number; status: string; n: number }>(
      'SELECT attempt, status, count(*) AS n FROM webhook_deliveries GROUP BY attempt, status ORDER BY attempt, status',
    )
  return { receiver, dispatcher, statuses }
}

/** Every send recorded, or a timeout (an outcome taken up by a rolled-back run and lost would never be). */
async function drain(dispatcher: WebhookDispatcher): Promise<void> {
  for (let round = 0; round < 4; round++) await dispatcher.pump()
  const timeout = Bun.sleep(15_000).then(() => Promise.reject(new Error('outcomes never recorded')))
  await Promise.race([dispatcher.settled(), timeout])
}

test('failures and successes: each recorded once, each failure queues its next attempt once', async () => {
  const s = await setUp((_, i) => ({ status: i % 2 === 0 ? 200 : 500 }))
  await drain(s.dispatcher)
  expect(s.receiver.received).toHaveLength(10)
  expect((await s.statuses()).map((r) => [Number(r.attempt), r.status, Number(r.n)])).toEqual([
    [1, 'failed', 5],
    [1, 'success', 5],
    [2, 'pending', 5],
  ])
})

test('410 Gone: the webhook disabled, what it had ready skipped, not sent', async () => {
  const s = await setUp(() => ({ status: 410, delayMs: 100 }))
  await drain(s.dispatcher)
  // Only the sends already under way when the first 410 came back (WEBHOOK_CONCURRENCY_PER_WEBHOOK).
  expect(s.receiver.received).toHaveLength(4)
  expect((await s.statuses()).map((r) => [r.status, Number(r.n)])).toEqual([
    ['failed', 4],
    ['skipped', 6],
  ])
})
