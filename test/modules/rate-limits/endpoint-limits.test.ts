// Endpoint-specific limits end to end, on stand-ins for routes that come later (reports, uploads)
// registered with the real auth macro: 10 reports a minute and 100 uploads an hour per user, on top of
// the plan's limits, the hourly one saved across restarts like the daily quotas.
import { afterAll, describe, expect, test } from 'bun:test'
import { authMacros } from '../../../src/http/auth.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

async function appWithStandIns() {
  const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
  apps.push(app)
  app.app
    .use(authMacros(app.context))
    .get('/api/v1/reports/:type', ({ params }) => ({ report: params.type }), { auth: true })
    .post('/api/v1/uploads', () => ({ uploaded: true }), { auth: true })
  const org = await seedOrganization(app, 'acme')
  return { app, org }
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

describe('POST /api/v1/uploads: 100 an hour per user', () => {
  test("the 101st upload in an hour is refused, and the wait it names is the hour's", async () => {
    const { app, org } = await appWithStandIns()
    const auth = org.users.agent.auth
    for (let i = 1; i <= 100; i++) {
      const response = await app.request('/api/v1/uploads', { method: 'POST', headers: auth })
      if (response.status !== 200) throw new Error(`upload ${i}: ${response.status}`)
      app.clock.advance(1000)
    }
    const refused = await app.request('/api/v1/uploads', { method: 'POST', headers: auth })
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain('100 requests per hour to POST /api/v1/uploads for this user')
    expect(refused.headers.get('x-ratelimit-limit')).toBe('100')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60)
  })
})
