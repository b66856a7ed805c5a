// The auth_cleanup cron task (src/modules/auth/jobs.ts): expired revocations and dead refresh tokens leave the database and memory, live ones stay.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import type { Role } from '../../src/modules/access/index.ts'
import { authCleanupTask, revocationsPruneTask, revokeSession, revokeUserSessions } from '../../src/modules/auth/index.ts'
import { makeTestApp, type TestApp, tempDirs } from '../helpers/app.ts'
import { type SeededOrg, seedOrganization, signIn } from '../helpers/seed.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
// Defaults of the test config: ACCESS_TOKEN_TTL 3600 s, REFRESH_TOKEN_TTL 30 days.
const ACCESS_TTL = HOUR
const REFRESH_TTL = 30 * DAY

const newDir = tempDirs('switchboard-auth-cleanup-')

/** The claims of a seeded access token that the cleanup is about. */
function claims(token: string): { jti: string; sid: string; expMs: number } {
  const payload = decodeJwt(token)
  return { jti: String(payload.jti), sid: String(payload.sid), expMs: Number(payload.exp) * 1000 }
}

async function refreshIds(app: TestApp): Promise<string[]> {
  return (await app.context.db.raw.all<{ id: string }>('SELECT id FROM refresh_tokens')).map((r) => r.id).sort()
}

async function refreshIdsOf(app: TestApp, sessionId: string): Promise<string[]> {
  return (await app.context.db.raw.all<{ id: string }>('SELECT id FROM refresh_tokens WHERE session_id = ?', [sessionId]))
    .map((r) => r.id)
    .sort()
}

async function revokedJtis(app: TestApp): Promise<string[]> {
  return (await app.context.db.raw.all<{ jti: string }>('SELECT jti FROM revoked_tokens')).map((r) => r.jti).sort()
}

async function addRefreshToken(
  app: TestApp,
  id: string,
  sessionId: string,
  expiresAt: number,
  consumedAt: number | null = null,
): Promise<void> {
  const row = {
    id,
    session_id: sessionId,
    token_hash: `hash-of-${id}`,
    generation: 2,
    created_at: app.clock.now(),
    expires_at: expiresAt,
    consumed_at: consumedAt,
  }
  await app.context.db.write('test.refresh_token', (tx) => tx.kysely.insertInto('refresh_tokens').values(row).execute())
}

async function addRevokedTokens(app: TestApp, rows: { jti: string; expires_at: number }[]): Promise<void> {
  await app.context.db.write('test.revoked_tokens', (tx) => tx.kysely.insertInto('revoked_tokens').values(rows).execute())
}

/**
 * The fields of the last auth_cleanup log line (what it deleted from the database) with those of the
 * last revocations_prune line (what this instance forgot from memory): the two run on the same interval.
 */
function lastReport(app: TestApp): Record<string, unknown> {
  const last = (task: string) => {
    const line = app.logs
      .records()
      .filter((r) => r.task === task && r.msg === 'cron')
      .at(-1)
    if (!line) throw new Error(`${task} has not run`)
    return line
  }
  return { ...last('revocations_prune'), ...last('auth_cleanup') }
}

function runsOf(app: TestApp): number {
  return app.context.scheduler.status().auth_cleanup!.runs
}

/** Runs auth_cleanup, then revocations_prune, as the cron loop does; their reports together. */
async function runDirectly(app: TestApp, now = app.clock.now()): Promise<Record<string, number | boolean>> {
  const run = { now, log: createLogger({ level: 'error', sink: memorySink() }), signal: new AbortController().signal }
  const deleted = (await authCleanupTask(app.context).run(run)) as Record<string, number | boolean>
  const forgotten = (await revocationsPruneTask(app.context).run(run)) as Record<string, number | boolean>
  return { ...deleted, ...forgotten, worked: Boolean(deleted.worked) || Boolean(forgotten.worked) }
}

describe('on the cron loop, over the month of a refresh token', () => {
  let app: TestApp
  let seed: SeededOrg
  let t0: number
  let agent: { jti: string; sid: string; expMs: number }
  const sid = {} as Record<Role, string>

  beforeAll(async () => {
    app = await makeTestApp()
    seed = await seedOrganization(app)
    t0 = app.clock.now()
    for (const [role, user] of Object.entries(seed.users) as [Role, SeededOrg['users'][Role]][]) sid[role] = claims(user.accessToken).sid
    agent = claims(seed.users.agent.accessToken)
  })
  afterAll(() => app.close())

  test('setup: the task is registered every 5 minutes; every seeded session has one live refresh token', async () => {
    expect(app.context.scheduler.status().auth_cleanup).toMatchObject({ runs: 0, next_run_at: new Date(t0 + 5 * MINUTE).toISOString() })
    expect(agent.expMs).toBe(t0 + ACCESS_TTL)
    for (const role of ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const)
      expect(await refreshIdsOf(app, sid[role])).toHaveLength(1)
  })

  test('logout revokes the token and the session, in the database and in memory', async () => {
    const response = await app.request('/api/v1/auth/logout', { method: 'POST', headers: seed.users.agent.auth })
    expect(response.status).toBe(204)
    expect(await revokedJtis(app)).toEqual([agent.jti])
    expect(app.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(true)
    expect(app.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(true)
    // The cleanup has not run yet: the ended session's refresh token is still stored.
    expect(await refreshIdsOf(app, agent.sid)).toHaveLength(1)

    // A revocation that expires sooner, and two refresh tokens of a live session that expire around t0 + 10 min.
    await addRevokedTokens(app, [{ jti: 'at_short', expires_at: t0 + 10 * MINUTE }])
    app.context.ports.revocations.rememberToken('at_short', t0 + 10 * MINUTE)
    await addRefreshToken(app, 'rtk_short', sid.viewer, t0 + 10 * MINUTE)
    await addRefreshToken(app, 'rtk_later', sid.viewer, t0 + 10 * MINUTE + 1, t0)
  })

  test('nothing runs before the first 5 minutes are up', async () => {
    app.clock.advance(5 * MINUTE - 1)
    await app.context.scheduler.tick()
    expect(runsOf(app)).toBe(0)
    expect(await refreshIdsOf(app, agent.sid)).toHaveLength(1)
  })

  test('t0 + 5 min: the refresh token of the ended session goes; the revocations stay', async () => {
    app.clock.advance(1)
    await app.context.scheduler.tick()
    expect(runsOf(app)).toBe(1)
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 0, refresh_tokens_deleted: 1, revocations_forgotten: 0 })
    expect(await refreshIdsOf(app, agent.sid)).toEqual([])
    for (const role of ['super_admin', 'admin', 'supervisor'] as const) expect(await refreshIdsOf(app, sid[role])).toHaveLength(1)
    expect(await refreshIdsOf(app, sid.viewer)).toHaveLength(3)
    expect(await revokedJtis(app)).toEqual([agent.jti, 'at_short'].sort())
    expect(app.context.ports.revocations.isTokenRevoked('at_short')).toBe(true)
    expect(app.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(true)
    expect(app.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(true)
    // The ended session itself is kept (as a record of the logout).
    expect(await app.context.db.raw.get('SELECT * FROM sessions WHERE id = ?', [agent.sid])).toMatchObject({
      revoked_at: t0,
      revoked_reason: 'logout',
    })
  })

  test('the revoked token is refused while it is still within its lifetime', async () => {
    const response = await app.request(`/api/v1/users/${seed.users.agent.user.id}`, { headers: seed.users.agent.auth })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { code: string }).code).toBe('TOKEN_INVALID')
  })

  test('t0 + 10 min: what expires at exactly t0 + 10 min goes, what expires 1 ms later stays', async () => {
    app.clock.advance(5 * MINUTE)
    await app.context.scheduler.tick()
    expect(runsOf(app)).toBe(2)
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 1, refresh_tokens_deleted: 1, revocations_forgotten: 1 })
    expect(await revokedJtis(app)).toEqual([agent.jti])
    expect(app.context.ports.revocations.isTokenRevoked('at_short')).toBe(false)
    expect(app.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(true)
    expect(app.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(true)
    const viewerTokens = await refreshIdsOf(app, sid.viewer)
    expect(viewerTokens).toHaveLength(2)
    expect(viewerTokens).toContain('rtk_later')
    expect(viewerTokens).not.toContain('rtk_short')
  })

  test("t0 + 55 min: the logout is still remembered (the agent's token lives until t0 + 60 min)", async () => {
    app.clock.advance(45 * MINUTE)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 0, refresh_tokens_deleted: 1, revocations_forgotten: 0 })
    expect(await refreshIdsOf(app, sid.viewer)).not.toContain('rtk_later')
    expect(await revokedJtis(app)).toEqual([agent.jti])
    expect(app.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(true)
    expect(app.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(true)
  })

  test("t0 + 60 min: the agent's token has expired, so its revocation and its session's are forgotten", async () => {
    app.clock.advance(5 * MINUTE)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 1, refresh_tokens_deleted: 0, revocations_forgotten: 2 })
    expect(await revokedJtis(app)).toEqual([])
    expect(app.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(false)
    expect(app.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(false)
    // The token is now refused for having expired, which needs no revocation.
    const response = await app.request(`/api/v1/users/${seed.users.agent.user.id}`, { headers: seed.users.agent.auth })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { code: string }).code).toBe('TOKEN_EXPIRED')
  })

  test('the live sessions keep their refresh tokens until those expire 30 days after sign-in', async () => {
    const live = await refreshIds(app)
    expect(live).toHaveLength(4)
    app.clock.advance(REFRESH_TTL - HOUR - 1)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 0, refresh_tokens_deleted: 0, revocations_forgotten: 0 })
    expect(await refreshIds(app)).toEqual(live)
    app.clock.advance(5 * MINUTE)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', revoked_tokens_deleted: 0, refresh_tokens_deleted: 4, revocations_forgotten: 0 })
    expect(await refreshIds(app)).toEqual([])
  })

  test('no run failed', () => {
    expect(app.context.scheduler.status().auth_cleanup).toMatchObject({ failures: 0, last_error: null })
  })
})

describe('run directly', () => {
  test('deletes exactly the revocations and refresh tokens whose time has come, and reports the counts', async () => {
    const app = await makeTestApp()
    try {
      const seed = await seedOrganization(app)
      const now = app.clock.now()
      const live = claims(seed.users.admin.accessToken).sid
      await addRevokedTokens(app, [
        { jti: 'at_past', expires_at: now - DAY },
        { jti: 'at_now', expires_at: now },
        { jti: 'at_next_ms', expires_at: now + 1 },
        { jti: 'at_future', expires_at: now + HOUR },
      ])
      await addRefreshToken(app, 'rtk_past', live, now - 1)
      await addRefreshToken(app, 'rtk_now', live, now)
      await addRefreshToken(app, 'rtk_next_ms', live, now + 1)
      await addRefreshToken(app, 'rtk_consumed_live', live, now + DAY, now - MINUTE)
      const before = await refreshIdsOf(app, live)
      expect(before).toHaveLength(5)

      expect(await runDirectly(app, now)).toEqual({
        worked: true,
        revoked_tokens_deleted: 2,
        refresh_tokens_deleted: 2,
        revocations_forgotten: 0,
      })
      expect(await revokedJtis(app)).toEqual(['at_future', 'at_next_ms'])
      expect(await refreshIdsOf(app, live)).toEqual(before.filter((id) => id !== 'rtk_past' && id !== 'rtk_now'))

      // A second run at the same time finds nothing more.
      expect(await runDirectly(app, now)).toEqual({
        worked: false,
        revoked_tokens_deleted: 0,
        refresh_tokens_deleted: 0,
        revocations_forgotten: 0,
      })
      expect(await runDirectly(app, now + 1)).toEqual({
        worked: true,
        revoked_tokens_deleted: 1,
        refresh_tokens_deleted: 1,
        revocations_forgotten: 0,
      })
      expect(await revokedJtis(app)).toEqual(['at_future'])
    } finally {
      await app.close()
    }
  })

  test('every refresh token of a revoked session goes, consumed or not; other sessions keep theirs', async () => {
    const app = await makeTestApp()
    try {
      const seed = await seedOrganization(app)
      const now = app.clock.now()
      const admin = claims(seed.users.admin.accessToken).sid
      const viewer = claims(seed.users.viewer.accessToken).sid
      const supervisor = claims(seed.users.supervisor.accessToken).sid
      const agent = claims(seed.users.agent.accessToken).sid
      // A second session of the supervisor, to be revoked along with the first.
      const supervisor2 = claims((await signIn(app, seed.users.supervisor.user)).accessToken).sid
      await addRefreshToken(app, 'rtk_admin_consumed', admin, now + DAY, now)
      await addRefreshToken(app, 'rtk_viewer_consumed', viewer, now + DAY, now)
      const keptBefore = [...(await refreshIdsOf(app, viewer)), ...(await refreshIdsOf(app, agent))].sort()
      expect(keptBefore).toHaveLength(3)

      const ends = await app.context.db.write('test.revoke', async (tx) => ({
        admin: await revokeSession(tx, admin, 'test', now),
        supervisor: await revokeUserSessions(tx, seed.users.supervisor.user.id, 'test', now),
      }))
      expect(ends.admin).toBe(now + ACCESS_TTL)
      expect(ends.supervisor.map(([id]) => id).sort()).toEqual([supervisor, supervisor2].sort())

      expect(await runDirectly(app, now)).toEqual({
        worked: true,
        revoked_tokens_deleted: 0,
        refresh_tokens_deleted: 4,
        revocations_forgotten: 0,
      })
      expect(await refreshIdsOf(app, admin)).toEqual([])
      expect(await refreshIdsOf(app, supervisor)).toEqual([])
      expect(await refreshIdsOf(app, supervisor2)).toEqual([])
      expect([...(await refreshIdsOf(app, viewer)), ...(await refreshIdsOf(app, agent))].sort()).toEqual(keptBefore)
      expect(await refreshIdsOf(app, viewer)).toContain('rtk_viewer_consumed')
    } finally {
      await app.close()
    }
  })

  test('forgets in-memory revocations only once their time has passed', async () => {
    const app = await makeTestApp()
    try {
      const now = app.clock.now()
      app.context.ports.revocations.rememberToken('at_a', now + MINUTE)
      app.context.ports.revocations.rememberToken('at_b', now + HOUR)
      app.context.ports.revocations.rememberSession('ses_a', now + MINUTE)
      app.context.ports.revocations.rememberSession('ses_b', now + HOUR)

      expect((await runDirectly(app, now + MINUTE - 1)).revocations_forgotten).toBe(0)
      for (const jti of ['at_a', 'at_b']) expect(app.context.ports.revocations.isTokenRevoked(jti)).toBe(true)
      for (const id of ['ses_a', 'ses_b']) expect(app.context.ports.revocations.isSessionRevoked(id)).toBe(true)

      expect((await runDirectly(app, now + MINUTE)).revocations_forgotten).toBe(2)
      expect(app.context.ports.revocations.isTokenRevoked('at_a')).toBe(false)
      expect(app.context.ports.revocations.isSessionRevoked('ses_a')).toBe(false)
      expect(app.context.ports.revocations.isTokenRevoked('at_b')).toBe(true)
      expect(app.context.ports.revocations.isSessionRevoked('ses_b')).toBe(true)

      expect((await runDirectly(app, now + HOUR)).revocations_forgotten).toBe(2)
      expect(app.context.ports.revocations.isTokenRevoked('at_b')).toBe(false)
      expect(app.context.ports.revocations.isSessionRevoked('ses_b')).toBe(false)
      expect((await runDirectly(app, now + DAY)).revocations_forgotten).toBe(0)
    } finally {
      await app.close()
    }
  })

  test('the task is named auth_cleanup and runs every 5 minutes by default', () => {
    const task = authCleanupTask(undefined as never)
    expect(task.name).toBe('auth_cleanup')
    expect(task.intervalMs).toBe(5 * MINUTE)
    expect(authCleanupTask(undefined as never, 1234).intervalMs).toBe(1234)
  })
})

describe('after a restart', () => {
  test('a logout is remembered from the database until the token expires, and not after', async () => {
    const dataDir = newDir()
    const first = await makeTestApp({}, { dataDir, keepData: true })
    const seed = await seedOrganization(first)
    const t0 = first.clock.now()
    const agent = claims(seed.users.agent.accessToken)
    expect((await first.request('/api/v1/auth/logout', { method: 'POST', headers: seed.users.agent.auth })).status).toBe(204)
    await first.close()

    const clock = first.clock
    clock.advance(ACCESS_TTL - 1)
    const second = await makeTestApp({}, { dataDir, keepData: true, clock })
    try {
      expect(second.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(true)
      expect(second.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(true)
      expect((await runDirectly(second)).revocations_forgotten).toBe(0)
      expect(await revokedJtis(second)).toEqual([agent.jti])
      expect(clock.now()).toBe(t0 + ACCESS_TTL - 1)
    } finally {
      await second.close()
    }

    clock.advance(1)
    const third = await makeTestApp({}, { dataDir, keepData: true, clock })
    try {
      // Nothing expired is loaded; the row itself waits for the next cleanup.
      expect(third.context.ports.revocations.isTokenRevoked(agent.jti)).toBe(false)
      expect(third.context.ports.revocations.isSessionRevoked(agent.sid)).toBe(false)
      expect(await revokedJtis(third)).toEqual([agent.jti])
      expect(await runDirectly(third)).toEqual({
        worked: true,
        revoked_tokens_deleted: 1,
        refresh_tokens_deleted: 0,
        revocations_forgotten: 0,
      })
      expect(await revokedJtis(third)).toEqual([])
    } finally {
      await third.close()
    }
  })
})
