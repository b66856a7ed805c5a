// The refresh cookie (`refresh_cookie: true`): login, MFA verify and refresh put the refresh token in an
// HttpOnly, SameSite=Strict cookie on the refresh path and leave it out of the JSON; a refresh without
// `refresh_token` spends the cookie only from this server's origin, rotates it, and reuse still ends the
// session; logout clears it.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)
const ORIGIN = 'http://localhost'

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}
/** The cookie's value in a Set-Cookie header, and the header itself. */
function cookieOf(response: Response): { value: string; header: string } {
  const header = response.headers.get('set-cookie') ?? ''
  return { value: /^sb_refresh=([^;]*)/.exec(header)?.[1] ?? '', header }
}
const fromCookie = (value: string, origin = ORIGIN) => post('/api/v1/auth/refresh', {}, { cookie: `sb_refresh=${value}`, origin })
const me = (accessToken: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${accessToken}` } })

async function loginWithCookie() {
  const response = await post('/api/v1/auth/login', { email: users.agent.user.email, password: PASSWORD, refresh_cookie: true })
  expect(response.status).toBe(200)
  return { body: await json(response), cookie: cookieOf(response) }
}

describe('login with refresh_cookie', () => {
  test('sets an HttpOnly, SameSite=Strict cookie on the refresh path and leaves the token out of the JSON', async () => {
    const { body, cookie } = await loginWithCookie()
    expect(body.refresh_token).toBeUndefined()
    expect(typeof body.access_token).toBe('string')
    expect(cookie.value).toStartWith('rt_')
    expect(cookie.header).toContain('Path=/api/v1/auth/refresh')
    expect(cookie.header).toContain('HttpOnly')
    expect(cookie.header).toContain('SameSite=Strict')
    expect(cookie.header).toContain(`Max-Age=${app.config.refreshTokenTtlS}`)
    expect(cookie.header).not.toContain('Secure') // http here; https adds Secure and the __Secure- prefix
  })

  test('without the flag nothing changes: the token is in the JSON, no cookie', async () => {
    const response = await post('/api/v1/auth/login', { email: users.agent.user.email, password: PASSWORD })
    expect(response.headers.get('set-cookie')).toBeNull()
    expect((await json(response)).refresh_token).toStartWith('rt_')
  })

  test('a flag that is not a boolean is a validation error', async () => {
    const response = await post('/api/v1/auth/login', { email: users.agent.user.email, password: PASSWORD, refresh_cookie: 'yes' })
    expect(response.status).toBe(400)
    expect((await json(response)).code).toBe('VALIDATION_FAILED')
  })
})

describe('refresh from the cookie', () => {
  test('rotates: new access token, successor in the cookie, none in the JSON; the spent cookie is then reuse', async () => {
    const { cookie } = await loginWithCookie()
    const first = await fromCookie(cookie.value)
    expect(first.status).toBe(200)
    const body = await json(first)
    expect(body.refresh_token).toBeUndefined()
    expect((await me(body.access_token as string)).status).toBe(200)
    const next = cookieOf(first)
    expect(next.value).toStartWith('rt_')
    expect(next.value).not.toBe(cookie.value)
    // Presenting the spent value again is reuse: the whole session ends, successor included.
    expect((await fromCookie(cookie.value)).status).toBe(401)
    expect((await fromCookie(next.value)).status).toBe(401)
    expect((await me(body.access_token as string)).status).toBe(401)
  })

  test('a refresh_token in the body wins over the cookie, and may ask for the cookie', async () => {
    const session = await signIn(app, users.agent.user)
    const response = await post('/api/v1/auth/refresh', { refresh_token: session.refreshToken, refresh_cookie: true })
    expect(response.status).toBe(200)
    expect((await json(response)).refresh_token).toBeUndefined()
    expect((await fromCookie(cookieOf(response).value)).status).toBe(200)
  })

  test.each([
    ['another site', 'https://evil.example'],
    ['an opaque origin', 'null'],
    ['no Origin at all', ''],
  ])('is refused from %s (403 ORIGIN_NOT_ALLOWED), and the cookie stays good', async (_, origin) => {
    const { cookie } = await loginWithCookie()
    const headers: Record<string, string> = { cookie: `sb_refresh=${cookie.value}` }
    if (origin) headers.origin = origin
    const response = await post('/api/v1/auth/refresh', {}, headers)
    expect(response.status).toBe(403)
    expect((await json(response)).code).toBe('ORIGIN_NOT_ALLOWED')
    expect((await fromCookie(cookie.value)).status).toBe(200)
  })

  test('no body token and no cookie: 401 TOKEN_INVALID saying what to send', async () => {
    const response = await post('/api/v1/auth/refresh', {}, { origin: ORIGIN })
    expect(response.status).toBe(401)
    const body = await json(response)
    expect(body.code).toBe('TOKEN_INVALID')
    expect(body.message).toContain('refresh cookie')
  })

  test('a malformed cookie counts as none', async () => {
    const response = await fromCookie('not-a-token;other=1')
    expect(response.status).toBe(401)
  })
})

test('logout clears the cookie and ends its session', async () => {
  const { body, cookie } = await loginWithCookie()
  const response = await app.request('/api/v1/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${body.access_token}` } })
  expect(response.status).toBe(204)
  const cleared = cookieOf(response)
  expect(cleared.value).toBe('')
  expect(cleared.header).toContain('Max-Age=0')
  expect(cleared.header).toContain('Path=/api/v1/auth/refresh')
  expect((await fromCookie(cookie.value)).status).toBe(401)
})
