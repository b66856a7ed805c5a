// Two instances of one cluster (one PostgreSQL, one Redis) through the HTTP API: a client spread over
// both gets its plan's budget once, with the same X-RateLimit-* headers and 429 as one instance gives.
import { afterAll, describe, expect, test } from 'bun:test'
import { clusterSettings } from '../helpers/engine.ts'
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../helpers/services.ts'

// Two boots on PostgreSQL take seconds on a busy machine; a timed-out test would also take the shared
// redis-server down with it (bun kills what a timed-out test spawned).
const SLOW_MS = 60_000
const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

async function twoInstances(settings: Record<string, string> = {}) {
  const shared = { ...(await clusterSettings()), RATE_LIMITS_ENABLED: 'true', ...settings }
  // One after the other: the first start migrates and bootstraps, the second finds it done.
  const a = await makeTestApp(shared)
  const b = await makeTestApp(shared)
  apps.push(a, b)
  return [a, b] as const
}

const headersOf = (response: Response) => [
  response.status,
  response.headers.get('x-ratelimit-limit'),
  response.headers.get('x-ratelimit-remaining'),
]

describe.skipIf(!postgresAvailable || !redisAvailable)('rate limits across two instances', () => {
  test(
    'a Free user alternating between the instances gets 60 requests a minute in all, then 429 on both',
    async () => {
      const [a, b] = await twoInstances()
      const org = await seedOrganization(a, 'acme')
      await a.context.db.raw.run('UPDATE organizations SET plan = ? WHERE id = ?', ['free', org.org.id])
      const auth = org.users.agent.auth
      const seen: unknown[] = []
      for (let i = 0; i < 60; i++) seen.push(headersOf(await (i % 2 === 0 ? a : b).request('/api/v1/me', { headers: auth })))
      expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => [200, '60', String(59 - i)]))
      for (const instance of [a, b]) {
        const refused = await instance.request('/api/v1/me', { headers: auth })
        expect(headersOf(refused)).toEqual([429, '60', '0'])
        expect(((await refused.json()) as { message: string }).message).toContain('60 requests per minute for this user')
      }
    },
    SLOW_MS,
  )

  test(
    'an address without credentials has UNAUTH_PER_MINUTE across both, 404s and all',
    async () => {
      const [a, b] = await twoInstances({ UNAUTH_PER_MINUTE: '4' })
      // In-process requests have no address: all of them are one unknown address's.
      const from = (instance: TestApp, path: string) => instance.request(path)
      expect(headersOf(await from(a, '/nowhere'))).toEqual([404, '4', '3'])
      expect(headersOf(await from(b, '/openapi.json'))).toEqual([200, '4', '2'])
      expect(headersOf(await from(a, '/nowhere'))).toEqual([404, '4', '1'])
      expect(headersOf(await from(b, '/nowhere'))).toEqual([404, '4', '0'])
      expect(headersOf(await from(a, '/openapi.json'))).toEqual([429, '4', '0'])
      expect(headersOf(await from(b, '/nowhere'))).toEqual([429, '4', '0'])
    },
    SLOW_MS,
  )
})
