// The idempotency_cleanup cron task (src/modules/idempotency/jobs.ts): every 15 minutes, the keys past
// their 24 hours leave the database; younger ones stay and still replay.
import { afterAll, expect, test } from 'bun:test'
import { IDEMPOTENCY_CLEANUP_INTERVAL_MS, KEY_TTL_MS } from '../../../src/modules/idempotency/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const keys = async () =>
  (await app.context.db.raw.all<{ idempotency_key: string }>('SELECT idempotency_key FROM idempotency_keys ORDER BY idempotency_key')).map(
    (row) => row.idempotency_key,
  )

test('deletes the expired keys on its interval, keeps the others, and reports how many it deleted', async () => {
  let { auth } = acme.users.admin
  const create = (key: string) =>
    app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ subject: `Ticket ${key}` }),
    })
  expect((await create('old-1')).status).toBe(201)
  expect((await create('old-2')).status).toBe(201)
  expect(app.context.scheduler.status().idempotency_cleanup).toMatchObject({ runs: 0 })

  // A day less 10 minutes later: a new key; the first two expire 10 minutes later.
  app.clock.advance(KEY_TTL_MS - 10 * 60_000)
  auth = (await signIn(app, acme.users.admin.user)).auth
  expect((await create('young')).status).toBe(201)
  await app.context.scheduler.tick()
  expect(await keys()).toEqual(['old-1', 'old-2', 'young'])

  app.clock.advance(IDEMPOTENCY_CLEANUP_INTERVAL_MS)
  await app.context.scheduler.tick()
  expect(app.context.scheduler.status().idempotency_cleanup).toMatchObject({ failures: 0, last_error: null })
  expect(await keys()).toEqual(['young'])
  const line = app.logs.records().findLast((r) => r.msg === 'cron' && r.task === 'idempotency_cleanup')
  expect(line).toMatchObject({ keys_deleted: 2 })

  // The key that stayed still replays its answer.
  const replay = await create('young')
  expect(replay.status).toBe(201)
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect(await json(replay)).toMatchObject({ subject: 'Ticket young' })
})
