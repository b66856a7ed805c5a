// Idempotency-Key across two instances of one cluster (one PostgreSQL, one Redis): the claim is a row of
// the shared database, so one key sent to both at once runs the operation once, and either replays it.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { clusterSettings } from '../helpers/engine.ts'
import { seedOrganization } from '../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../helpers/services.ts'

// Two boots on PostgreSQL take seconds on a busy machine.
const SLOW_MS = 60_000
const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

describe.skipIf(!postgresAvailable || !redisAvailable)('one key, two instances', () => {
  test(
    '10 requests at once, alternating between the instances: one ticket; the others 409 IDEMPOTENCY_KEY_IN_USE or its replay',
    async () => {
      const shared = await clusterSettings()
      // One after the other: the first start migrates and bootstraps, the second finds it done.
      const a = await makeTestApp(shared)
      const b = await makeTestApp(shared)
      apps.push(a, b)
      const { auth } = (await seedOrganization(a, 'acme')).users.admin
      const key = crypto.randomUUID()
      const create = (instance: TestApp) =>
        instance.request('/api/v1/tickets', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ subject: 'Printer on fire' }),
        })
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i % 2 === 0 ? a : b)))
      const ran = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)
      expect(ran).toHaveLength(1)
      const first = await ran[0]!.clone().text()
      for (const response of responses) {
        if (response === ran[0]) continue
        if (response.status === 409) expect(((await response.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_USE')
        else expect([response.status, response.headers.get('idempotent-replayed'), await response.text()]).toEqual([201, 'true', first])
      }
      // Both instances replay the one answer.
      for (const instance of [a, b]) {
        const retry = await create(instance)
        expect(retry.headers.get('idempotent-replayed')).toBe('true')
        expect(await retry.text()).toBe(first)
      }
      const list = await b.request('/api/v1/tickets?include_total=true', { headers: auth })
      expect(((await list.json()) as { total_count: number }).total_count).toBe(1)
    },
    SLOW_MS,
  )
})
