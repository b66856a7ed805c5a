// POST /api/v1/auth/refresh: rotation, reuse detection that revokes the whole family, the concurrent
// race (exactly one success), expiry and disabled users.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

const refresh = (token: unknown) =>
  app.request('/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: token }),
  })
const me = (accessToken: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${accessToken}` } })
type Tokens = { access_token: string; refresh_token: string; user: { id: string } }

async function expectDead(response: Response) {
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toStartWith('Bearer realm="switchboard"')
  expect((await json(response)).code).toBe('TOKEN_INVALID')
}

describe('rotation', () => {
  test('returns the login shape with a new access token and a new refresh token', async () => {
    const session = await signIn(app, users.agent.user)
    const response = await refresh(session.refreshToken)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json<Tokens & Record<string, unknown>>(response)
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user: { id: users.agent.user.id, role: 'agent' } })
    expect(body.refresh_token).not.toBe(session.refreshToken)
    expect(body.access_token).not.toBe(session.accessToken)
    expect((await me(body.access_token)).status).toBe(200)
    // The successor works, and so on down the chain.
    const next = await json<Tokens>(await refresh(body.refresh_token))
    expect((await refresh(next.refresh_token)).status).toBe(200)
  })
})

describe('reuse', () => {
  test('presenting a used refresh token again revokes the whole family: successors and access tokens die', async () => {
    const session = await signIn(app, users.agent.user)
    const stolen = session.refreshToken
    const owner = await json<Tokens>(await refresh(stolen))
    // The thief replays the old token: refused, and the family is revoked.
    await expectDead(await refresh(stolen))
    await expectDead(await refresh(owner.refresh_token))
    await expectDead(await me(owner.access_token))
    await expectDead(await me(session.accessToken))
    expect(app.logs.records().some((r) => r.msg === 'refresh token reuse detected; session revoked')).toBe(true)
  })

  test('another session of the same user is untouched', async () => {
    const a = await signIn(app, users.supervisor.user)
    const b = await signIn(app, users.supervisor.user)
    await refresh(a.refreshToken)
    await refresh(a.refreshToken)
    expect((await me(b.accessToken)).status).toBe(200)
    expect((await refresh(b.refreshToken)).status).toBe(200)
  })

  test('concurrent refreshes of one token: exactly one succeeds', async () => {
    for (const racers of [2, 5]) {
      const session = await signIn(app, users.viewer.user)
      const responses = await Promise.all(Array.from({ length: racers }, () => refresh(session.refreshToken)))
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(racers - 1).fill(401)])
    }
  })
})

describe('refused', () => {
  test('unknown and malformed tokens', async () => {
    await expectDead(await refresh('rt_not-a-real-token'))
    expect((await refresh('')).status).toBe(400)
    expect((await refresh(7)).status).toBe(400)
  })

  test('an expired refresh token (30 days by default)', async () => {
    const session = await signIn(app, users.admin.user)
    app.clock.advance(30 * 86_400_000 + 1000)
    await expectDead(await refresh(session.refreshToken))
  })

  test('the user was disabled', async () => {
    const { users: team } = await seedOrganization(app, 'leaving')
    expect((await app.request(`/api/v1/users/${team.agent.user.id}`, { method: 'DELETE', headers: team.admin.auth })).status).toBe(204)
    await expectDead(await refresh(team.agent.refreshToken))
  })
})
