// Limits by client address over a real loopback server (clients told apart by X-Forwarded-For from a
// trusted proxy): unauthenticated requests per address (IPv6 by /64), failed authentications counted
// and then refused, login per address and per e-mail refused before any password is hashed, probes
// never counted, and the X-RateLimit-* headers on every kind of response.
import { afterAll, afterEach, describe, expect, spyOn, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

interface Served {
  app: TestApp
  org: SeededOrg
  base: string
  close(): Promise<void>
}

const served: Served[] = []
afterAll(async () => {
  for (const s of served) await s.close()
})

async function serve(settings: Record<string, string> = {}): Promise<Served> {
  const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true', TRUSTED_PROXIES: '127.0.0.1', ...settings })
  const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
  const org = await seedOrganization(app, 'acme')
  const s = {
    app,
    org,
    base: `http://127.0.0.1:${server.server!.port}`,
    close: async () => {
      await server.stop(true)
      await app.close()
    },
  }
  served.push(s)
  return s
}

/** A request from `ip`, as the trusted proxy reports it. */
function from(s: Served, ip: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  return fetch(`${s.base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-forwarded-for': ip, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

const login = (s: Served, ip: string, email: string, password = 'wrong password') =>
  from(s, ip, '/api/v1/auth/login', { body: { email, password } })

function headersOf(response: Response) {
  return [response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]
}

describe('unauthenticated requests, per address (UNAUTH_PER_MINUTE)', () => {
  test('every kind of unauthenticated request counts, the next one is 429 whatever it asks, and other addresses and signed-in users go on', async () => {
    const s = await serve({ UNAUTH_PER_MINUTE: '5' })
    const ip = '203.0.113.7'
    expect(headersOf(await from(s, ip, '/openapi.json'))).toEqual([200, '5', '4'])
    expect(headersOf(await from(s, ip, '/nowhere'))).toEqual([404, '5', '3'])
    expect(headersOf(await from(s, ip, '/api/v1/me'))).toEqual([401, '5', '2'])
    expect(headersOf(await from(s, ip, '/api/v1/me', { headers: { authorization: 'Bearer forged.token.here' } }))).toEqual([401, '5', '1'])
    expect(headersOf(await from(s, ip, '/api/v1/auth/refresh', { body: { refresh_token: 'nope' } }))).toEqual([401, '5', '0'])

    for (const path of ['/openapi.json', '/nowhere', '/api/v1/me']) {
      const refused = await from(s, ip, path)
      expect(headersOf(refused)).toEqual([429, '5', '0'])
      expect(await refused.json()).toEqual({
        code: 429,
        message: expect.stringContaining('5 unauthenticated requests per minute from this address'),
        retry_after: Number(refused.headers.get('retry-after')),
        error: 'RATE_LIMITED',
      })
    }
    // A bad body is refused before it is parsed or validated.
    expect((await from(s, ip, '/api/v1/auth/login', { body: { email: 'x' } })).status).toBe(429)

    expect(headersOf(await from(s, '203.0.113.8', '/nowhere'))).toEqual([404, '5', '4'])
    // A signed-in user from the same address counts against their own budget (Professional: 1,000 a minute).
    expect(headersOf(await from(s, ip, '/api/v1/me', { headers: s.org.users.agent.auth }))).toEqual([200, '1000', '999'])
    // Probes and discovery documents never count and carry no headers.
    for (const path of ['/health', '/ready', '/.well-known/jwks.json'])
      expect(headersOf(await from(s, ip, path))).toEqual([200, null, null])

    s.app.clock.advance(120_000)
    expect(headersOf(await from(s, ip, '/nowhere'))).toEqual([404, '5', '4'])
  })

  test('IPv6 addresses count by /64: one subscriber cannot multiply its budget', async () => {
    const s = await serve({ UNAUTH_PER_MINUTE: '3' })
    expect(headersOf(await from(s, '2001:db8:1:2::1', '/nowhere'))).toEqual([404, '3', '2'])
    expect(headersOf(await from(s, '2001:db8:1:2::ffff', '/nowhere'))).toEqual([404, '3', '1'])
    expect(headersOf(await from(s, '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '/nowhere'))).toEqual([404, '3', '0'])
    expect((await from(s, '2001:db8:1:2::2', '/nowhere')).status).toBe(429)
    expect(headersOf(await from(s, '2001:db8:1:3::1', '/nowhere'))).toEqual([404, '3', '2'])
    // IPv4-mapped IPv6 is its IPv4 address.
    expect(headersOf(await from(s, '198.51.100.1', '/nowhere'))).toEqual([404, '3', '2'])
    expect(headersOf(await from(s, '::ffff:198.51.100.1', '/nowhere'))).toEqual([404, '3', '1'])
  })
})

describe('POST /api/v1/auth/login: 10 a minute per address and per e-mail', () => {
  let verify: ReturnType<typeof spyOn<typeof Bun.password, 'verify'>> | undefined
  afterEach(() => verify?.mockRestore())

  test('the 11th attempt from one address is 429 and no password is hashed for it', async () => {
    const s = await serve()
    verify = spyOn(Bun.password, 'verify')
    const ip = '192.0.2.10'
    for (let i = 1; i <= 10; i++) expect(headersOf(await login(s, ip, `someone-${i}@acme.test`))).toEqual([401, '10', String(10 - i)])
    expect(verify).toHaveBeenCalledTimes(10)
    const refused = await login(s, ip, s.org.users.agent.user.email, PASSWORD)
    expect(headersOf(refused)).toEqual([429, '10', '0'])
    expect(((await refused.json()) as { message: string }).message).toContain('10 login attempts per minute from this address')
    expect(verify).toHaveBeenCalledTimes(10)
    // Another address signs in.
    expect((await login(s, '192.0.2.11', s.org.users.agent.user.email, PASSWORD)).status).toBe(200)
    expect(verify).toHaveBeenCalledTimes(11)
  })

  test('the 11th attempt on one e-mail address from anywhere is 429, without hashing, and the e-mail is matched case-insensitively', async () => {
    const s = await serve()
    verify = spyOn(Bun.password, 'verify')
    const email = s.org.users.agent.user.email
    for (let i = 1; i <= 10; i++) expect((await login(s, `192.0.2.${100 + i}`, i % 2 === 0 ? email.toUpperCase() : email)).status).toBe(401)
    const refused = await login(s, '192.0.2.200', ` ${email} `, PASSWORD)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain('10 login attempts per minute for this e-mail address')
    expect(verify).toHaveBeenCalledTimes(10)
    // Another account from the same address is not affected; a minute later the first one can sign in again.
    expect((await login(s, '192.0.2.200', s.org.users.admin.user.email, PASSWORD)).status).toBe(200)
    s.app.clock.advance(Number(refused.headers.get('retry-after')) * 1000)
    expect((await login(s, '192.0.2.200', email, PASSWORD)).status).toBe(200)
  })
})

describe('X-RateLimit-* on every response', () => {
  test('2xx, 4xx and 429, authenticated or not; the most constraining window is the one shown', async () => {
    const s = await serve()
    const ip = '198.51.100.20'
    const auth = s.org.users.agent.auth
    const cases: Array<[string, Promise<Response>, number, string]> = [
      ['200 authenticated', from(s, ip, '/api/v1/me', { headers: auth }), 200, '1000'],
      [
        '201 authenticated',
        from(s, ip, '/api/v1/tickets', { headers: auth, body: { subject: 'Printer on fire', description: 'It is on fire.' } }),
        201,
        '1000',
      ],
      ['400 authenticated', from(s, ip, '/api/v1/tickets?page_size=0', { headers: auth }), 400, '60'],
      ['403 authenticated', from(s, ip, '/api/v1/audit-logs', { headers: auth }), 403, '1000'],
      ['404 authenticated', from(s, ip, '/api/v1/tickets/tkt_00000000000000000000000000', { headers: auth }), 404, '1000'],
      ['405', from(s, ip, '/api/v1/me', { method: 'PUT' }), 405, '60'],
      ['401', from(s, ip, '/api/v1/me'), 401, '60'],
      ['200 login: its own 10 a minute is the tighter window', login(s, ip, s.org.users.admin.user.email, PASSWORD), 200, '10'],
    ]
    for (const [name, pending, status, limit] of cases) {
      const response = await pending
      expect([name, response.status, response.headers.get('x-ratelimit-limit')]).toEqual([name, status, limit])
      const reset = Number(response.headers.get('x-ratelimit-reset'))
      expect(reset).toBeGreaterThan(s.app.clock.now() / 1000)
      expect(reset).toBeLessThanOrEqual(s.app.clock.now() / 1000 + 2 * 86_400)
    }
  })
})
