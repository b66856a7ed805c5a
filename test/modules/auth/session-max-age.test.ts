// SESSION_MAX_AGE on a fake clock (issue 12, item 13): a session ends that long after its sign-in
// however often it is refreshed; refresh tokens expire at min(REFRESH_TOKEN_TTL, the session's end),
// access tokens never outlive it, and a refresh after the end is 401 TOKEN_INVALID. The real-clock
// check on the compiled binary is test/binary/session-max-age.test.ts.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

type Tokens = { access_token: string; refresh_token: string; expires_in: number }
const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number; auth_time: number }
const S = 1000
const DAY = 86_400 * S

describe('SESSION_MAX_AGE=3600, REFRESH_TOKEN_TTL=1800, ACCESS_TOKEN_TTL=600', async () => {
  const app = await makeTestApp({ SESSION_MAX_AGE: '3600', REFRESH_TOKEN_TTL: '1800', ACCESS_TOKEN_TTL: '600' })
  afterAll(() => app.close())
  const { users } = await seedOrganization(app)
  const refresh = (token: string) =>
    app.request('/api/v1/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    })

  test('refreshes keep the session going until its end, with shorter tokens near it; then 401 TOKEN_INVALID', async () => {
    const start = app.clock.now()
    const session = await signIn(app, users.agent.user)
    const at = (seconds: number) => app.clock.advance(start + seconds * S - app.clock.now())

    at(1500)
    const a = await json<Tokens>(await refresh(session.refreshToken))
    expect(a.expires_in).toBe(600)
    at(3000)
    const b = await json<Tokens>(await refresh(a.refresh_token))
    expect(b.expires_in).toBe(600)
    at(3500)
    const c = await json<Tokens>(await refresh(b.refresh_token))
    // 100 s left of the session: the access token lasts 100 s, not 600.
    expect(c.expires_in).toBe(100)
    expect(claims(c.access_token).exp).toBe(claims(c.access_token).auth_time + 3600)
    const listed = await json<{ sessions: { current: boolean; expires_at: string }[] }>(
      await app.request('/api/v1/auth/sessions', { headers: { authorization: `Bearer ${c.access_token}` } }),
    )
    expect(listed.sessions.find((s) => s.current)!.expires_at).toBe(new Date(start + 3600 * S).toISOString())

    at(3600)
    const late = await refresh(c.refresh_token)
    expect(late.status).toBe(401)
    expect((await json(late)).code).toBe('TOKEN_INVALID')
    const me = await app.request('/api/v1/me', { headers: { authorization: `Bearer ${c.access_token}` } })
    expect(me.status).toBe(401)
    expect((await json(me)).code).toBe('TOKEN_EXPIRED')
  })

  test('a session that sits unused longer than REFRESH_TOKEN_TTL still ends then (the idle limit)', async () => {
    const session = await signIn(app, users.viewer.user)
    app.clock.advance(1800 * S)
    expect((await refresh(session.refreshToken)).status).toBe(401)
  })
})

describe('defaults: 30 days from sign-in, however often refreshed', async () => {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const { users } = await seedOrganization(app)
  const refresh = (token: string) =>
    app.request('/api/v1/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    })

  test('refreshed every day: day 29 works, and its refresh token is dead at day 30', async () => {
    let { refreshToken } = await signIn(app, users.agent.user)
    for (let day = 1; day <= 29; day++) {
      app.clock.advance(DAY)
      const response = await refresh(refreshToken)
      expect({ day, status: response.status }).toEqual({ day, status: 200 })
      refreshToken = (await json<Tokens>(response)).refresh_token
    }
    app.clock.advance(DAY)
    expect((await refresh(refreshToken)).status).toBe(401)
  })
})
