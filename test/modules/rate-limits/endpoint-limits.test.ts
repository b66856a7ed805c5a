// Endpoint-specific limits end to end: 10 reports a minute per user, on a stand-in for the route that comes
// later registered with the real auth macro, and 100 uploads an hour per organization on the real
// POST /api/v1/uploads (its users share the budget), on top of the plan's limits.
import { afterAll, describe, expect, test } from 'bun:test'
import { authMacros } from '../../../src/http/auth.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

async function appWithStandIns() {
  const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
  apps.push(app)
  app.app.use(authMacros(app.context)).get('/api/v1/reports/:type', ({ params }) => ({ report: params.type }), { auth: true })
  const org = await seedOrganization(app, 'acme')
  const other = await seedOrganization(app, 'globex')
  return { app, org, other }
}

describe('GET /api/v1/reports/*: 10 a minute per user', () => {
  test('the 11th report in a minute is refused while other routes still answer; each user has their own', async () => {
    const { app, org } = await appWithStandIns()
    const auth = org.users.agent.auth
    for (let i = 1; i <= 10; i++) {
      const response = await app.request(`/api/v1/reports/${i % 2 ? 'tickets' : 'calls'}`, { headers: auth })
      expect([response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual([
        200,
        '10',
        String(10 - i),
      ])
    }
    const refused = await app.request('/api/v1/reports/tickets', { headers: auth })
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain(
      '10 requests per minute to GET /api/v1/reports/* for this user',
    )
    expect((await app.request('/api/v1/me', { headers: auth })).status).toBe(200)
    expect((await app.request('/api/v1/reports/tickets', { headers: org.users.admin.auth })).status).toBe(200)
  })
})

describe('POST /api/v1/uploads: 100 an hour per organization', () => {
  test("its users share the hundred; the 101st upload is refused with the spec's 429 and the hour's wait; another organization has its own", async () => {
    const { app, org, other } = await appWithStandIns()
    const upload = (auth: { authorization: string }, i: number) =>
      app.request(`/api/v1/uploads?filename=f${i}.txt`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: `file ${i}`,
      })
    const users = [org.users.agent, org.users.supervisor, org.users.admin]
    for (let i = 1; i <= 100; i++) {
      const response = await upload(users[i % 3]!.auth, i)
      if (response.status !== 201) throw new Error(`upload ${i}: ${response.status} ${await response.text()}`)
      expect([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['100', String(100 - i)])
      app.clock.advance(1000)
    }
    const refused = await upload(org.users.agent.auth, 101)
    expect(refused.status).toBe(429)
    const body = (await refused.json()) as Record<string, unknown>
    expect(body).toEqual({
      code: 429,
      message: 'Rate limit reached: 100 requests per hour to POST /api/v1/uploads for this organization',
      retry_after: Number(refused.headers.get('retry-after')),
      error: 'RATE_LIMITED',
    })
    expect(refused.headers.get('x-ratelimit-limit')).toBe('100')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60)
    // Refused before its body was read: nothing more was stored.
    const count = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM uploads')
    expect(Number(count!.n)).toBe(100)
    // Other routes still answer; another organization uploads.
    expect((await app.request('/api/v1/me', { headers: org.users.agent.auth })).status).toBe(200)
    expect((await upload(other.users.agent.auth, 1)).status).toBe(201)
  })
})
