// A write that cannot get its lock in time answers 503 with Retry-After (the error shape of every
// error), never 500, and nothing of it is written; once the lock is free the same request succeeds.
// PostgreSQL only: SQLite's writer lock has its own wait (test/db/sqlite.test.ts).
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { seedOrganization } from '../helpers/seed.ts'

describe.skipIf(TEST_ENGINE !== 'postgres')('a write past DATABASE_LOCK_TIMEOUT', () => {
  test('503 SERVICE_UNAVAILABLE with Retry-After while another transaction holds the counter; 201 after', async () => {
    const app = await makeTestApp({ DATABASE_LOCK_TIMEOUT: '200' })
    afterAll(() => app.close())
    const { auth } = (await seedOrganization(app, 'acme')).users.admin
    const create = () =>
      app.request('/api/v1/tickets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"subject":"Hi"}' })
    expect((await create()).status).toBe(201)
    const holder = await new Bun.SQL(app.config.databaseUrl!).reserve()
    try {
      await holder.unsafe('BEGIN')
      await holder.unsafe('SELECT * FROM ticket_counters FOR UPDATE')
      const busy = await create()
      expect(busy.status).toBe(503)
      expect(busy.headers.get('retry-after')).toBe('1')
      const body = await json<{ code: string; message: string; request_id: string }>(busy)
      expect(body.code).toBe('SERVICE_UNAVAILABLE')
      expect(body.message).toBe('The database is busy with other writes: try again shortly')
      expect(body.request_id).toBeString()
      await holder.unsafe('ROLLBACK')
    } finally {
      holder.release()
    }
    const after = await create()
    expect(after.status).toBe(201)
    // The refused creation took no number: the one after it is the second.
    expect((await json<{ number: number }>(after)).number).toBe(2)
  })
})
