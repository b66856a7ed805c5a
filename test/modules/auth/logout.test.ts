// POST /api/v1/auth/logout: the access token is blacklisted until it expires and its session ends;
// both survive a restart of the server on the same database.
import { describe, expect, test } from 'bun:test'
import { json, makeTestApp, tempDirs } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const dataDir = tempDirs()

describe('logout', () => {
  test('204; that token and its session are dead, other sessions live', async () => {
    const app = await makeTestApp()
    try {
      const { users } = await seedOrganization(app)
      const other = await signIn(app, users.agent.user)
      const me = (token: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })
      const logout = await app.request('/api/v1/auth/logout', { method: 'POST', headers: users.agent.auth })
      expect(logout.status).toBe(204)
      expect(await logout.text()).toBe('')
      const after = await me(users.agent.accessToken)
      expect(after.status).toBe(401)
      expect(await json(after)).toMatchObject({ code: 'TOKEN_INVALID', message: 'The access token has been revoked' })
      const refreshed = await app.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: users.agent.refreshToken }),
      })
      expect(refreshed.status).toBe(401)
      expect((await me(other.accessToken)).status).toBe(200)
      // Logging out twice with the same token: it is no longer a credential.
      expect((await app.request('/api/v1/auth/logout', { method: 'POST', headers: users.agent.auth })).status).toBe(401)
      // Blacklisted until the moment the token would have expired.
      const jti = JSON.parse(Buffer.from(users.agent.accessToken.split('.')[1]!, 'base64url').toString()).jti
      expect(await app.context.db.raw.all('SELECT jti, expires_at FROM revoked_tokens')).toContainEqual({
        jti,
        expires_at: app.clock.now() + 3_600_000,
      })
    } finally {
      await app.close()
    }
  })

  test('survives a restart: a new process on the same database still refuses the token', async () => {
    const dir = dataDir()
    const clock = new FakeClock()
    const first = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    const { users } = await seedOrganization(first)
    expect((await first.request('/api/v1/auth/logout', { method: 'POST', headers: users.admin.auth })).status).toBe(204)
    await first.close()

    const second = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    try {
      const refused = await second.request('/api/v1/me', { headers: users.admin.auth })
      expect(refused.status).toBe(401)
      expect((await json(refused)).code).toBe('TOKEN_INVALID')
      // The same restart keeps tokens that were not revoked working (so it is the revocation that holds).
      expect((await second.request('/api/v1/me', { headers: users.viewer.auth })).status).toBe(200)
    } finally {
      await second.close()
    }
  })
})
