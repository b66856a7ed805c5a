// Per-user plan limits on a fake clock, in-process: the 61st request of a Free user in a minute, the
// exact 429 and its headers, the moment it passes again, the daily quota, the organization's
// aggregate, personal access tokens sharing the user's budget, and a plan change taking effect at once.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

async function freeOrg(settings: Record<string, string> = {}) {
  const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true', ...settings })
  apps.push(app)
  const org = await seedOrganization(app, 'acme')
  await setPlan(app, org, 'free')
  return { app, org }
}

async function setPlan(app: TestApp, org: SeededOrg, plan: string, perMinute: number | null = null, perDay: number | null = null) {
  await app.context.db.raw.run('UPDATE organizations SET plan = ?, rate_limit_per_minute = ?, rate_limit_per_day = ? WHERE id = ?', [
    plan,
    perMinute,
    perDay,
    org.org.id,
  ])
}

const me = (app: TestApp, headers: Record<string, string>) => app.request('/api/v1/me', { headers })

function limits(response: Response) {
  return {
    status: response.status,
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  }
}

describe('per user, Free plan: 60 a minute', () => {
  test('the 61st request in a minute is 429 with the exact body and headers, and passes again after the wait it names', async () => {
    const { app, org } = await freeOrg()
    const auth = org.users.agent.auth
    for (let i = 1; i <= 60; i++) {
      const response = await me(app, auth)
      expect([response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual([
        200,
        '60',
        String(60 - i),
      ])
    }
    const refused = await me(app, auth)
    expect(refused.status).toBe(429)
    const body = (await refused.json()) as Record<string, unknown>
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(body).toEqual({
      code: 429,
      message: expect.stringContaining('60 requests per minute for this user'),
      retry_after: retryAfter,
      error: 'RATE_LIMITED',
    })
    expect(Object.keys(body)).toEqual(['code', 'message', 'retry_after', 'error'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(120)
    expect(limits(refused)).toEqual({
      status: 429,
      limit: '60',
      remaining: '0',
      reset: String(Math.ceil(app.clock.now() / 1000) + retryAfter),
    })
    expect(refused.headers.get('content-type')).toStartWith('application/json')

    app.clock.advance(retryAfter * 1000 - 1000)
    expect((await me(app, auth)).status).toBe(429)
    app.clock.advance(1000)
    expect((await me(app, auth)).status).toBe(200)
  })

  test('another user of the same organization has a budget of their own', async () => {
    const { app, org } = await freeOrg()
    for (let i = 0; i < 60; i++) await me(app, org.users.agent.auth)
    expect((await me(app, org.users.agent.auth)).status).toBe(429)
    expect(limits(await me(app, org.users.admin.auth))).toMatchObject({ status: 200, limit: '60', remaining: '59' })
  })
})

describe('per user, per day', () => {
  test("the 1,001st request of a Free user in a day is refused, naming the daily limit, and the minute headers give way to the day's", async () => {
    const { app, org } = await freeOrg()
    const auth = org.users.agent.auth
    // 1,000 requests at 40 a minute: never near the minute limit.
    for (let i = 1; i <= 1000; i++) {
      const response = await me(app, auth)
      if (response.status !== 200) throw new Error(`request ${i}: ${response.status}`)
      if (i === 990) expect(limits(response)).toMatchObject({ limit: '1000', remaining: '10' })
      app.clock.advance(1500)
    }
    const refused = await me(app, auth)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain('1000 requests per day for this user')
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1000')
    // The daily window slides: it takes hours, not a minute, before it accepts again.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3600)
  })
})

describe('per organization: the plan rates times ORG_LIMIT_FACTOR', () => {
  test("with a factor of 2, two users spend the organization's minute and a third is refused although their own budget is whole", async () => {
    const { app, org } = await freeOrg({ ORG_LIMIT_FACTOR: '2' })
    for (const role of ['agent', 'supervisor'] as const)
      for (let i = 0; i < 60; i++) expect((await me(app, org.users[role].auth)).status).toBe(200)
    const refused = await me(app, org.users.admin.auth)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain('120 requests per minute for this organization')
    expect(limits(refused)).toMatchObject({ limit: '120', remaining: '0' })
  })

  test('another organization is not affected', async () => {
    const { app, org } = await freeOrg({ ORG_LIMIT_FACTOR: '1' })
    const other = await seedOrganization(app, 'globex')
    await setPlan(app, other, 'free')
    for (let i = 0; i < 60; i++) await me(app, org.users.agent.auth)
    expect((await me(app, org.users.admin.auth)).status).toBe(429)
    expect((await me(app, other.users.admin.auth)).status).toBe(200)
  })
})

describe('personal access tokens', () => {
  test("share their owner's budget with the owner's sessions", async () => {
    const { app, org } = await freeOrg()
    const auth = org.users.agent.auth
    const created = await app.request('/api/v1/api-keys', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'script', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() }),
    })
    expect(created.status).toBe(201)
    const { token } = (await created.json()) as { token: string }
    for (let i = 0; i < 29; i++) expect((await me(app, auth)).status).toBe(200)
    for (let i = 0; i < 30; i++) expect((await me(app, { 'x-api-key': token })).status).toBe(200)
    expect((await me(app, { authorization: `Bearer ${token}` })).status).toBe(429)
    expect((await me(app, auth)).status).toBe(429)
  })
})

describe('plans', () => {
  test('a plan change applies to the very next request', async () => {
    const { app, org } = await freeOrg()
    const auth = org.users.agent.auth
    for (let i = 0; i < 60; i++) await me(app, auth)
    expect((await me(app, auth)).status).toBe(429)
    await setPlan(app, org, 'starter')
    expect(limits(await me(app, auth))).toMatchObject({ status: 200, limit: '300', remaining: '239' })
    await setPlan(app, org, 'enterprise', 62, 5000)
    expect(limits(await me(app, auth))).toMatchObject({ status: 200, limit: '62', remaining: '0' })
    expect((await me(app, auth)).status).toBe(429)
    await setPlan(app, org, 'professional')
    expect(limits(await me(app, auth))).toMatchObject({ status: 200, limit: '1000', remaining: '937' })
  })
})

describe('RATE_LIMITS_ENABLED=false', () => {
  test('nothing is limited and no response carries the headers', async () => {
    const { app, org } = await freeOrg({ RATE_LIMITS_ENABLED: 'false' })
    for (let i = 0; i < 100; i++) {
      const response = await me(app, org.users.agent.auth)
      expect([response.status, response.headers.get('x-ratelimit-limit')]).toEqual([200, null])
    }
    const anonymous = await app.request('/api/v1/me')
    expect([anonymous.status, anonymous.headers.get('x-ratelimit-limit')]).toEqual([401, null])
  })
})
