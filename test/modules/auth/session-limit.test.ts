// The organization's concurrent-session limit over real loopback HTTP: deny_new and evict_oldest, concurrent logins racing for the last slot, expired sessions, and the audit records.
import { afterAll, describe, expect, test } from 'bun:test'
import { totpAt } from '../../helpers/totp.ts'
import { json, makeTestApp, tempDirs } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { PASSWORD, seedOrganization, signIn } from '../../helpers/seed.ts'

interface Tokens {
  access_token: string
  refresh_token: string
}
interface AuditRecord {
  event: string
  outcome: string
  reason: string | null
  actor: { type: string; id: string | null }
  target: { type: string; id: string | null } | null
  details: Record<string, unknown>
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** An app listening on loopback, with helpers that talk to it as a client would. */
async function start(settings: Record<string, string> = {}) {
  const clock = new FakeClock()
  const app = await makeTestApp(settings, { clock })
  const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
  const base = `http://127.0.0.1:${server.server!.port}`
  const org = await seedOrganization(app, 'acme')
  let made = 0
  // Tokens signed now: the fake clock moves past the seeded tokens' lifetime in some tests.
  const current = async (role: 'super_admin' | 'admin') => (await signIn(app, org.users[role].user)).auth
  const h = {
    app,
    clock,
    org,
    base,
    async close() {
      await server.stop(true)
      await app.close()
    },
    login(email: string, password = PASSWORD) {
      return fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    },
    async loginOk(email: string): Promise<Tokens> {
      const response = await h.login(email)
      expect(response.status).toBe(200)
      return (await response.json()) as Tokens
    },
    me: (token: string) => fetch(`${base}/api/v1/me`, { headers: bearer(token) }),
    refresh: (token: string) =>
      fetch(`${base}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: token }),
      }),
    async setLimit(max: number | null, policy?: 'deny_new' | 'evict_oldest') {
      const response = await fetch(`${base}/api/v1/organization/security`, {
        method: 'PATCH',
        headers: { ...(await current('super_admin')), 'content-type': 'application/json' },
        body: JSON.stringify({ max_concurrent_sessions: max, ...(policy ? { session_limit_policy: policy } : {}) }),
      })
      expect(response.status).toBe(200)
      return (await response.json()) as Record<string, unknown>
    },
    /** A fresh user of the organization, without any session. */
    async newUser(): Promise<{ id: string; email: string }> {
      const email = `limit-${++made}@acme.test`
      const response = await fetch(`${base}/api/v1/users`, {
        method: 'POST',
        headers: { ...(await current('super_admin')), 'content-type': 'application/json' },
        body: JSON.stringify({ email, name: `Limit ${made}`, password: PASSWORD, role: 'agent' }),
      })
      expect(response.status).toBe(201)
      return { id: ((await response.json()) as { id: string }).id, email }
    },
    /** Live sessions of a user straight from the table: not revoked and not expired. */
    async liveSessions(userId: string): Promise<string[]> {
      const rows = await app.context.db.raw.all<{ id: string }>(
        'SELECT id FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at, id',
        [userId, clock.now()],
      )
      return rows.map((r) => r.id)
    },
    async audit(event: string): Promise<AuditRecord[]> {
      const response = await fetch(`${base}/api/v1/audit-logs?event=${event}&page_size=100`, { headers: await current('admin') })
      expect(response.status).toBe(200)
      return ((await response.json()) as { audit_logs: AuditRecord[] }).audit_logs
    },
  }
  return h
}

const h = await start()
afterAll(() => h.close())

async function expectCode(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = (await response.json()) as Record<string, unknown>
  expect(body.code).toBe(code)
  return body
}

describe('settings', () => {
  test('unlimited by default: many sessions of one user live side by side', async () => {
    const security = await (await fetch(`${h.base}/api/v1/organization/security`, { headers: h.org.users.admin.auth })).json()
    expect(security).toMatchObject({ max_concurrent_sessions: null, session_limit_policy: 'evict_oldest' })
    const user = await h.newUser()
    const logins = []
    for (let i = 0; i < 5; i++) logins.push(await h.loginOk(user.email))
    expect(await h.liveSessions(user.id)).toHaveLength(5)
    for (const t of logins) expect((await h.me(t.access_token)).status).toBe(200)
  })

  test.each([
    [{ max_concurrent_sessions: 0 }],
    [{ max_concurrent_sessions: -1 }],
    [{ max_concurrent_sessions: 1.5 }],
    [{ max_concurrent_sessions: 1001 }],
    [{ session_limit_policy: 'kill_all' }],
    [{ session_limit_policy: null }],
  ])('invalid %p -> 400 VALIDATION_FAILED', async (body) => {
    const response = await fetch(`${h.base}/api/v1/organization/security`, {
      method: 'PATCH',
      headers: { ...h.org.users.super_admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    await expectCode(response, 400, 'VALIDATION_FAILED')
  })
})

describe('deny_new', () => {
  test('the login beyond the limit gets 403 SESSION_LIMIT_REACHED and no tokens; ending one makes room', async () => {
    await h.setLimit(2, 'deny_new')
    try {
      const user = await h.newUser()
      const first = await h.loginOk(user.email)
      const second = await h.loginOk(user.email)
      const refused = await h.login(user.email)
      const body = await expectCode(refused, 403, 'SESSION_LIMIT_REACHED')
      expect(body).not.toHaveProperty('access_token')
      expect(body).not.toHaveProperty('refresh_token')
      expect(JSON.stringify(body)).not.toContain('rt_')
      expect(await h.liveSessions(user.id)).toEqual([claims(first.access_token).sid, claims(second.access_token).sid])
      // The existing sessions are untouched.
      expect((await h.me(first.access_token)).status).toBe(200)
      expect((await h.refresh(second.refresh_token)).status).toBe(200)
      // Logging out of one frees a slot.
      expect((await fetch(`${h.base}/api/v1/auth/logout`, { method: 'POST', headers: bearer(first.access_token) })).status).toBe(204)
      const third = await h.loginOk(user.email)
      await expectCode(await h.login(user.email), 403, 'SESSION_LIMIT_REACHED')
      // So does ending one through the sessions endpoint.
      expect(
        (
          await fetch(`${h.base}/api/v1/auth/sessions/${claims(third.access_token).sid}`, {
            method: 'DELETE',
            headers: bearer(third.access_token),
          })
        ).status,
      ).toBe(204)
      await h.loginOk(user.email)
    } finally {
      await h.setLimit(null)
    }
  })

  test('the refusal is audited as login.failure with reason session_limit_reached', async () => {
    await h.setLimit(1, 'deny_new')
    try {
      const user = await h.newUser()
      await h.loginOk(user.email)
      const before = (await h.audit('login.failure')).length
      await expectCode(await h.login(user.email), 403, 'SESSION_LIMIT_REACHED')
      const failures = await h.audit('login.failure')
      expect(failures).toHaveLength(before + 1)
      expect(failures[0]).toMatchObject({
        outcome: 'failure',
        reason: 'session_limit_reached',
        actor: { type: 'user', id: user.id },
        target: { type: 'user', id: user.id },
      })
    } finally {
      await h.setLimit(null)
    }
  })

  test('the limit is per user: another user of the organization still signs in', async () => {
    await h.setLimit(1, 'deny_new')
    try {
      const a = await h.newUser()
      const b = await h.newUser()
      await h.loginOk(a.email)
      await expectCode(await h.login(a.email), 403, 'SESSION_LIMIT_REACHED')
      await h.loginOk(b.email)
    } finally {
      await h.setLimit(null)
    }
  })

  test('a limit set below the sessions already live refuses new logins and ends none', async () => {
    const user = await h.newUser()
    const logins = [await h.loginOk(user.email), await h.loginOk(user.email), await h.loginOk(user.email)]
    await h.setLimit(2, 'deny_new')
    try {
      await expectCode(await h.login(user.email), 403, 'SESSION_LIMIT_REACHED')
      expect(await h.liveSessions(user.id)).toHaveLength(3)
      for (const t of logins) expect((await h.me(t.access_token)).status).toBe(200)
    } finally {
      await h.setLimit(null)
    }
  })

  test('a wrong password beyond the limit is still just INVALID_CREDENTIALS', async () => {
    await h.setLimit(1, 'deny_new')
    try {
      const user = await h.newUser()
      await h.loginOk(user.email)
      await expectCode(await h.login(user.email, 'not the password'), 401, 'INVALID_CREDENTIALS')
    } finally {
      await h.setLimit(null)
    }
  })
})

describe('evict_oldest', () => {
  test("the login succeeds and the oldest session's tokens die at once", async () => {
    await h.setLimit(2, 'evict_oldest')
    try {
      const user = await h.newUser()
      const oldest = await h.loginOk(user.email)
      h.clock.advance(1000)
      const middle = await h.loginOk(user.email)
      h.clock.advance(1000)
      const newest = await h.loginOk(user.email)
      const evictedSid = claims(oldest.access_token).sid
      await expectCode(await h.me(oldest.access_token), 401, 'TOKEN_INVALID')
      await expectCode(await h.refresh(oldest.refresh_token), 401, 'TOKEN_INVALID')
      expect((await h.me(middle.access_token)).status).toBe(200)
      expect((await h.me(newest.access_token)).status).toBe(200)
      expect(await h.liveSessions(user.id)).toEqual([claims(middle.access_token).sid, claims(newest.access_token).sid])
      const evictions = (await h.audit('session.evicted')).filter((r) => r.target?.id === evictedSid)
      expect(evictions).toHaveLength(1)
      expect(evictions[0]).toMatchObject({
        outcome: 'success',
        reason: 'session_limit',
        actor: { type: 'user', id: user.id },
        target: { type: 'session', id: evictedSid },
        details: { user_id: user.id },
      })
      // The next login evicts the next oldest: the middle one.
      await h.loginOk(user.email)
      await expectCode(await h.me(middle.access_token), 401, 'TOKEN_INVALID')
      expect((await h.me(newest.access_token)).status).toBe(200)
    } finally {
      await h.setLimit(null)
    }
  })

  test('the oldest is chosen by creation, not by last use', async () => {
    await h.setLimit(2, 'evict_oldest')
    try {
      const user = await h.newUser()
      const oldest = await h.loginOk(user.email)
      h.clock.advance(1000)
      const younger = await h.loginOk(user.email)
      h.clock.advance(120_000)
      // The oldest is the one most recently used, and refreshed.
      const renewed = (await (await h.refresh(oldest.refresh_token)).json()) as Tokens
      expect((await h.me(renewed.access_token)).status).toBe(200)
      await h.loginOk(user.email)
      await expectCode(await h.me(renewed.access_token), 401, 'TOKEN_INVALID')
      expect((await h.me(younger.access_token)).status).toBe(200)
    } finally {
      await h.setLimit(null)
    }
  })

  test('a limit lowered below the sessions already live evicts down to the limit at the next login', async () => {
    const user = await h.newUser()
    const old = [await h.loginOk(user.email), await h.loginOk(user.email), await h.loginOk(user.email)]
    await h.setLimit(1, 'evict_oldest')
    try {
      const fresh = await h.loginOk(user.email)
      expect(await h.liveSessions(user.id)).toEqual([claims(fresh.access_token).sid])
      for (const t of old) await expectCode(await h.me(t.access_token), 401, 'TOKEN_INVALID')
      const evicted = (await h.audit('session.evicted')).filter((r) => r.details.user_id === user.id).map((r) => r.target!.id)
      expect(evicted.sort()).toEqual(old.map((t) => claims(t.access_token).sid).sort())
    } finally {
      await h.setLimit(null)
    }
  })

  test('sessions of other users are never evicted', async () => {
    await h.setLimit(1, 'evict_oldest')
    try {
      const a = await h.newUser()
      const b = await h.newUser()
      const ta = await h.loginOk(a.email)
      await h.loginOk(b.email)
      await h.loginOk(b.email)
      expect((await h.me(ta.access_token)).status).toBe(200)
    } finally {
      await h.setLimit(null)
    }
  })
})

describe('concurrent logins (max 1)', () => {
  const RACERS = 6

  async function race(email: string): Promise<Response[]> {
    return Promise.all(Array.from({ length: RACERS }, () => h.login(email)))
  }

  test('deny_new, nothing live yet: exactly one succeeds, the rest are 403 SESSION_LIMIT_REACHED', async () => {
    await h.setLimit(1, 'deny_new')
    try {
      for (let round = 0; round < 3; round++) {
        const user = await h.newUser()
        const responses = await race(user.email)
        const bodies = (await Promise.all(responses.map((r) => r.json()))) as (Tokens & { code?: string })[]
        expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(RACERS - 1).fill(403)])
        expect(bodies.filter((b) => b.code === 'SESSION_LIMIT_REACHED')).toHaveLength(RACERS - 1)
        const winner = bodies.find((b) => b.access_token)!
        expect(await h.liveSessions(user.id)).toEqual([claims(winner.access_token).sid])
        expect((await h.me(winner.access_token)).status).toBe(200)
        const failures = (await h.audit('login.failure')).filter((r) => r.actor.id === user.id)
        expect(failures).toHaveLength(RACERS - 1)
        for (const f of failures) expect(f.reason).toBe('session_limit_reached')
      }
    } finally {
      await h.setLimit(null)
    }
  })

  test('deny_new, one session already live: none succeeds', async () => {
    await h.setLimit(1, 'deny_new')
    try {
      const user = await h.newUser()
      const existing = await h.loginOk(user.email)
      const responses = await race(user.email)
      expect(responses.map((r) => r.status)).toEqual(Array(RACERS).fill(403))
      for (const r of responses) expect(((await r.json()) as { code: string }).code).toBe('SESSION_LIMIT_REACHED')
      expect(await h.liveSessions(user.id)).toEqual([claims(existing.access_token).sid])
    } finally {
      await h.setLimit(null)
    }
  })

  test('evict_oldest: all succeed and exactly one live session remains, one of theirs', async () => {
    await h.setLimit(1, 'evict_oldest')
    try {
      for (let round = 0; round < 3; round++) {
        const user = await h.newUser()
        const existing = await h.loginOk(user.email)
        const responses = await race(user.email)
        expect(responses.map((r) => r.status)).toEqual(Array(RACERS).fill(200))
        const tokens = (await Promise.all(responses.map((r) => r.json()))) as Tokens[]
        const sids = tokens.map((t) => claims(t.access_token).sid)
        expect(new Set(sids).size).toBe(RACERS)
        const live = await h.liveSessions(user.id)
        expect(live).toHaveLength(1)
        expect(sids).toContain(live[0]!)
        // The one left is the only one whose tokens still work.
        const statuses = await Promise.all(tokens.map(async (t) => (await h.me(t.access_token)).status))
        expect(statuses.filter((s) => s === 200)).toHaveLength(1)
        expect(statuses.filter((s) => s === 401)).toHaveLength(RACERS - 1)
        await expectCode(await h.me(existing.access_token), 401, 'TOKEN_INVALID')
        // Every session but the survivor was evicted exactly once.
        const evicted = (await h.audit('session.evicted')).filter((r) => r.details.user_id === user.id).map((r) => r.target!.id)
        expect(evicted.sort()).toEqual([claims(existing.access_token).sid, ...sids].filter((s) => s !== live[0]).sort())
        // The list agrees.
        const survivor = tokens[sids.indexOf(live[0]!)]!
        const listed = (await (await fetch(`${h.base}/api/v1/auth/sessions`, { headers: bearer(survivor.access_token) })).json()) as {
          sessions: { id: string }[]
        }
        expect(listed.sessions.map((s) => s.id)).toEqual(live)
      }
    } finally {
      await h.setLimit(null)
    }
  })
})

describe('expired sessions do not count', () => {
  // Its own app with the shortest refresh lifetime (5 minutes), so expiry comes before the seeded access tokens' hour.
  let e: Awaited<ReturnType<typeof start>>
  afterAll(() => e?.close())

  test("deny_new: once the live session's refresh token has expired, a new login is let in", async () => {
    e ??= await start({ REFRESH_TOKEN_TTL: '300', ACCESS_TOKEN_TTL: '300' })
    await e.setLimit(1, 'deny_new')
    const user = await e.newUser()
    await e.loginOk(user.email)
    await expectCode(await e.login(user.email), 403, 'SESSION_LIMIT_REACHED')
    e.clock.advance(299_000)
    await expectCode(await e.login(user.email), 403, 'SESSION_LIMIT_REACHED')
    e.clock.advance(1_001)
    const fresh = await e.loginOk(user.email)
    expect(await e.liveSessions(user.id)).toEqual([claims(fresh.access_token).sid])
  })

  test('evict_oldest: an expired session is not evicted (nothing live to make room for)', async () => {
    e ??= await start({ REFRESH_TOKEN_TTL: '300', ACCESS_TOKEN_TTL: '300' })
    await e.setLimit(1, 'evict_oldest')
    const user = await e.newUser()
    const old = await e.loginOk(user.email)
    e.clock.advance(301_000)
    await e.loginOk(user.email)
    const evicted = (await e.audit('session.evicted')).filter((r) => r.target?.id === claims(old.access_token).sid)
    expect(evicted).toHaveLength(0)
  })

  test('a refreshed session stays live and counts', async () => {
    e ??= await start({ REFRESH_TOKEN_TTL: '300', ACCESS_TOKEN_TTL: '300' })
    await e.setLimit(1, 'deny_new')
    const user = await e.newUser()
    const first = await e.loginOk(user.email)
    e.clock.advance(200_000)
    expect((await e.refresh(first.refresh_token)).status).toBe(200)
    e.clock.advance(200_000)
    // 400 s after the login, but only 200 s after the refresh: still live.
    await expectCode(await e.login(user.email), 403, 'SESSION_LIMIT_REACHED')
  })
})

describe('MFA sign-ins are counted the same way', () => {
  /** A user with TOTP on and one session (the one used to enroll); returns its secret and that session. */
  async function userWithTotp() {
    const user = await h.newUser()
    const first = await h.loginOk(user.email)
    const auth = bearer(first.access_token)
    const started = await fetch(`${h.base}/api/v1/auth/mfa/totp`, { method: 'POST', headers: auth })
    expect(started.status).toBe(200)
    const { secret } = (await started.json()) as { secret: string }
    const confirmed = await fetch(`${h.base}/api/v1/auth/mfa/totp/confirm`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code: totpAt(secret, h.clock.now()) }),
    })
    expect(confirmed.status).toBe(200)
    // The next code must come from a later time step.
    h.clock.advance(30_000)
    return { user, secret, first }
  }

  async function signInWithTotp(email: string, secret: string) {
    const challenge = (await (await h.login(email)).json()) as { mfa_required: boolean; mfa_token: string }
    expect(challenge.mfa_required).toBe(true)
    const response = await fetch(`${h.base}/api/v1/auth/mfa/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mfa_token: challenge.mfa_token, code: totpAt(secret, h.clock.now()), method: 'totp' }),
    })
    h.clock.advance(30_000)
    return response
  }

  test('deny_new: the verify beyond the limit is 403 SESSION_LIMIT_REACHED', async () => {
    const { user, secret, first } = await userWithTotp()
    await h.setLimit(1, 'deny_new')
    try {
      await expectCode(await signInWithTotp(user.email, secret), 403, 'SESSION_LIMIT_REACHED')
      expect(await h.liveSessions(user.id)).toEqual([claims(first.access_token).sid])
    } finally {
      await h.setLimit(null)
    }
  })

  test('evict_oldest: the verify succeeds and the oldest session dies', async () => {
    const { user, secret, first } = await userWithTotp()
    await h.setLimit(1, 'evict_oldest')
    try {
      const response = await signInWithTotp(user.email, secret)
      expect(response.status).toBe(200)
      const tokens = (await response.json()) as Tokens
      expect(await h.liveSessions(user.id)).toEqual([claims(tokens.access_token).sid])
      await expectCode(await h.me(first.access_token), 401, 'TOKEN_INVALID')
    } finally {
      await h.setLimit(null)
    }
  })
})

describe('an eviction survives a restart', () => {
  const dirs = tempDirs()

  test("the evicted session's tokens stay dead on a new process on the same data", async () => {
    const dir = dirs()
    const clock = new FakeClock()
    const first = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    const login = (app: typeof first, email: string) =>
      app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      })
    let evicted: Tokens
    let kept: Tokens
    let email: string
    try {
      const org = await seedOrganization(first, 'restart')
      email = org.users.agent.user.email
      const patched = await first.request('/api/v1/organization/security', {
        method: 'PATCH',
        headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ max_concurrent_sessions: 1, session_limit_policy: 'evict_oldest' }),
      })
      expect(patched.status).toBe(200)
      evicted = await json<Tokens>(await login(first, email))
      kept = await json<Tokens>(await login(first, email))
      expect((await first.request('/api/v1/me', { headers: bearer(evicted.access_token) })).status).toBe(401)
    } finally {
      await first.close()
    }
    const second = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    try {
      const dead = await second.request('/api/v1/me', { headers: bearer(evicted!.access_token) })
      expect(dead.status).toBe(401)
      expect((await json(dead)).code).toBe('TOKEN_INVALID')
      const refreshed = await second.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: evicted!.refresh_token }),
      })
      expect(refreshed.status).toBe(401)
      expect((await second.request('/api/v1/me', { headers: bearer(kept!.access_token) })).status).toBe(200)
    } finally {
      await second.close()
    }
  })
})
