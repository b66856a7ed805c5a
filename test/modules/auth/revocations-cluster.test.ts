// Revocations across two instances on one PostgreSQL and one Redis, through the HTTP API of each: a
// logout, a password change or a refresh-token reuse on A is refused on B, through Redis (a token B had
// cached as verified included); a disabled user and a changed role apply on A at its next request and
// on B once PostgreSQL's announcement arrives; with Redis stopped, B still refuses what A revoked (it
// asks the database) and accepts valid tokens, and it goes back to its memory by itself once Redis
// returns.
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Revocations } from '../../../src/modules/auth/index.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { clusterSettings } from '../../helpers/engine.ts'
import { freePort } from '../../helpers/process.ts'
import { PASSWORD, type SeededUser, seedOrganization, signIn } from '../../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../../helpers/services.ts'

// Each test starts two instances on a fresh database (migrations, a signing key): slow on a busy machine.
setDefaultTimeout(90_000)

// Each test's instances close when it ends: many open at once would exhaust PostgreSQL's connections.
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}, 60_000)

/** An instance of the cluster: with REDIS_URL, runtime.ts shares its revocations through Redis. */
function shared(app: TestApp): TestApp {
  expect((app.context.ports.revocations as Revocations).isShared).toBe(true)
  return app
}

/** Two instances of one cluster (started one after the other: first-start races are not this file's subject). */
async function cluster(settings: Record<string, string> = {}) {
  const shared_ = { ...(await clusterSettings()), ...settings }
  const a = shared(await makeTestApp(shared_, { clock: new FakeClock(Date.now()) }))
  cleanups.push(() => a.close())
  const b = shared(await makeTestApp(shared_, { clock: new FakeClock(Date.now()) }))
  cleanups.push(() => b.close())
  const { users } = await seedOrganization(a)
  await inStep(b)
  return { a, b, users }
}

/** Waits until `app` answers revocation checks from memory (subscribed, and caught up with the database). */
async function inStep(app: TestApp): Promise<void> {
  for (const deadline = Date.now() + 30_000; typeof app.context.ports.revocations.revoked('-', '-') !== 'boolean'; await Bun.sleep(10))
    if (Date.now() > deadline) throw new Error('the instance never caught up with the Redis subscription')
}

const claimsOf = (user: Pick<SeededUser, 'accessToken'>): { jti: string; sid: string } =>
  JSON.parse(Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString())

/** Whether `app` holds the revocation of `user`'s token or session in memory (it came through Redis). */
function heardOf(app: TestApp, user: Pick<SeededUser, 'accessToken'>): boolean {
  const { jti, sid } = claimsOf(user)
  return app.context.ports.revocations.isTokenRevoked(jti) || app.context.ports.revocations.isSessionRevoked(sid)
}

const me = (app: TestApp, user: Pick<SeededUser, 'auth'>) => app.request('/api/v1/me', { headers: user.auth })

/**
 * Until `app` refuses `user`'s token. Generous: an instance that answers from memory hears of a revocation
 * made elsewhere only through Redis, so a long wait proves it as a short one would; how soon, the cluster
 * benchmark measures.
 */
async function expectRefused(app: TestApp, user: Pick<SeededUser, 'auth'>): Promise<void> {
  for (const deadline = Date.now() + 20_000; ; await Bun.sleep(10)) {
    const response = await me(app, user)
    if (response.status === 401) {
      expect(await json(response)).toMatchObject({ code: 'TOKEN_INVALID' })
      return
    }
    expect(response.status).toBe(200)
    if (Date.now() > deadline) throw new Error('the token was still accepted 20 s after its revocation')
  }
}

const post = (app: TestApp, path: string, headers: Record<string, string>, body?: unknown) =>
  app.request(path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

describe.skipIf(!postgresAvailable || !redisAvailable)('revocations on every instance', () => {
  test('logout on A: the token B had cached as verified is refused on B; the other session lives', async () => {
    const { a, b, users } = await cluster()
    const other = await signIn(a, users.agent.user)
    // B has verified both tokens already (its cache skips the signature check from now on).
    expect((await me(b, users.agent)).status).toBe(200)
    expect((await me(b, other)).status).toBe(200)
    expect(b.context.ports.verifiedTokens.size).toBeGreaterThanOrEqual(2)
    expect((await post(a, '/api/v1/auth/logout', users.agent.auth)).status).toBe(204)
    await expectRefused(b, users.agent)
    expect(heardOf(b, users.agent)).toBe(true)
    expect((await me(b, other)).status).toBe(200)
  })

  test('password change on A: every other session of the user is refused on B', async () => {
    const { a, b, users } = await cluster()
    const laptop = await signIn(a, users.supervisor.user)
    expect((await me(b, laptop)).status).toBe(200)
    const changed = await post(a, '/api/v1/auth/password', users.supervisor.auth, {
      current_password: PASSWORD,
      new_password: 'a brand new passphrase 42',
    })
    expect(changed.status).toBe(204)
    await expectRefused(b, laptop)
    expect(heardOf(b, laptop)).toBe(true)
    // The session that changed it goes on.
    expect((await me(b, users.supervisor)).status).toBe(200)
  })

  test('refresh-token reuse on A ends the session: its access token is refused on B', async () => {
    const { a, b, users } = await cluster()
    const refresh = (token: string) => post(a, '/api/v1/auth/refresh', {}, { refresh_token: token })
    const first = await refresh(users.viewer.refreshToken)
    expect(first.status).toBe(200)
    const accessToken = (await json<{ access_token: string }>(first)).access_token
    const fresh = { accessToken, auth: { authorization: `Bearer ${accessToken}` } }
    expect((await me(b, fresh)).status).toBe(200)
    // The used refresh token sent again: stolen, so the whole session ends.
    expect((await refresh(users.viewer.refreshToken)).status).toBe(401)
    await expectRefused(b, fresh)
    expect(heardOf(b, fresh)).toBe(true)
  })

  // Each instance keeps the user behind a token in memory; PostgreSQL announces the change
  // (src/db/postgres-change-mark.ts): A's next request has it, B's once the announcement arrives.
  test('a role changed on A applies to its next request and to B within moments; a user disabled on A is refused on both', async () => {
    const { a, b, users } = await cluster()
    const before = await json<{ role: string; permissions: string[] }>(await me(b, users.agent))
    expect(before.role).toBe('agent')
    const patch = (id: string, body: unknown) =>
      a.request(`/api/v1/users/${id}`, {
        method: 'PATCH',
        headers: { ...users.admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const permissionsOf = async (app: TestApp) =>
      (await json<{ role: string; permissions: string[] }>(await me(app, users.agent))).permissions
    expect((await patch(users.agent.user.id, { role: 'viewer' })).status).toBe(200)
    const after = await json<{ role: string; permissions: string[] }>(await me(a, users.agent))
    expect(after.role).toBe('viewer')
    expect(after.permissions).not.toEqual(before.permissions)
    for (const deadline = Date.now() + 20_000; ; await Bun.sleep(10)) {
      const seen = await permissionsOf(b)
      if (JSON.stringify(seen) === JSON.stringify(after.permissions)) break
      expect(Date.now()).toBeLessThan(deadline)
    }
    expect((await me(b, users.viewer)).status).toBe(200)
    expect((await patch(users.viewer.user.id, { status: 'disabled' })).status).toBe(200)
    expect((await me(a, users.viewer)).status).toBe(401)
    await expectRefused(b, users.viewer)
  })
})

/** A redis-server of this test's own on a fixed port, so that it can be stopped and started again. */
function ownRedis() {
  const port = freePort()
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-redis-'))
  let child: ReturnType<typeof Bun.spawn> | undefined
  const url = `redis://127.0.0.1:${port}`
  const server = {
    url,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]
      child = Bun.spawn([Bun.which('redis-server')!, ...args], { stdout: 'ignore', stderr: 'ignore' })
      for (const deadline = Date.now() + 10_000; ; await Bun.sleep(50)) {
        const client = new Bun.RedisClient(url, { autoReconnect: false })
        try {
          await client.send('PING', [])
          return
        } catch (error) {
          if (Date.now() > deadline) throw error
        } finally {
          client.close()
        }
      }
    },
    async stop() {
      child?.kill('SIGKILL')
      await child?.exited
      child = undefined
    },
  }
  cleanups.push(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  return server
}

describe.skipIf(!postgresAvailable || !redisAvailable)('with Redis stopped (fail closed)', () => {
  test('B refuses what A revoked meanwhile and accepts valid tokens; back in memory once Redis returns', async () => {
    const redis = ownRedis()
    await redis.start()
    const { a, b, users } = await cluster({ REDIS_URL: redis.url })
    const [admin, agent, viewer] = [users.admin, users.agent, users.viewer]
    for (const user of [admin, agent, viewer]) expect((await me(b, user)).status).toBe(200)

    await redis.stop()
    // B sees its subscription close: from then on it asks the database.
    for (const deadline = Date.now() + 30_000; typeof b.context.ports.revocations.revoked('-', '-') === 'boolean'; await Bun.sleep(10))
      if (Date.now() > deadline) throw new Error('B never noticed that Redis had gone')
    expect((await post(a, '/api/v1/auth/logout', agent.auth)).status).toBe(204)
    // A could not publish it: B finds it in the database.
    expect((await me(b, agent)).status).toBe(401)
    expect((await me(b, viewer)).status).toBe(200)
    expect((await me(a, agent)).status).toBe(401)
    expect(b.logs.records()).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringContaining('revocation checks read the database') }),
    )

    await redis.start()
    // B resubscribes, reloads from the database and trusts its memory again, by itself.
    const logLine = (r: Record<string, unknown>) => r.level === 'info' && String(r.msg).includes('revocation checks are in memory again')
    for (const deadline = Date.now() + 30_000; !b.logs.records().some(logLine); await Bun.sleep(20)) {
      await me(b, viewer)
      if (Date.now() > deadline) throw new Error('B did not go back to its memory after Redis returned')
    }
    expect((await me(b, agent)).status).toBe(401)
    expect((await me(b, viewer)).status).toBe(200)
    // Answered from memory again (a boolean, no database read), the revocation made during the outage included.
    const { revocations } = b.context.ports
    expect(revocations.revoked(claimsOf(viewer).jti, claimsOf(viewer).sid)).toBe(false)
    expect(revocations.revoked(claimsOf(agent).jti, claimsOf(agent).sid)).toBe(true)
    // And shares again: a logout on A after the outage reaches B through Redis.
    expect((await post(a, '/api/v1/auth/logout', viewer.auth)).status).toBe(204)
    await expectRefused(b, viewer)
    expect(heardOf(b, viewer)).toBe(true)
    expect((await me(b, admin)).status).toBe(200)
  })
})
