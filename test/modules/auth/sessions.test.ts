// Sessions through the real app over loopback HTTP: GET /api/v1/auth/sessions (shape, order, paging, last-seen), DELETE /api/v1/auth/sessions/{id} (tokens die at once, survives a restart) and the admin rules.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp, tempDirs, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { TEST_ENGINE } from '../../helpers/engine.ts'
import { PASSWORD, seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${server.server!.port}`
afterAll(async () => {
  await server.stop(true)
  await app.close()
})
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const dataDir = tempDirs()

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const DAY = 86_400_000

interface Tokens {
  access_token: string
  refresh_token: string
  user: { id: string }
}
interface SessionItem {
  id: string
  user_id: string
  current: boolean
  ip: string | null
  user_agent: string | null
  auth_methods: string[]
  mfa_enrollment_only: boolean
  created_at: string
  last_seen_at: string
  expires_at: string
}
interface SessionList {
  sessions: SessionItem[]
  next_page_token: string
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string; sub: string }

async function login(email: string, userAgent = 'SessionsTest/1.0 (+loopback)'): Promise<Tokens> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Tokens
}

function listSessions(token: string, params: Record<string, string | number> = {}) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()
  return fetch(`${base}/api/v1/auth/sessions${query ? `?${query}` : ''}`, { headers: bearer(token) })
}

async function sessionsOf(token: string, params: Record<string, string | number> = {}): Promise<SessionList> {
  const response = await listSessions(token, params)
  expect(response.status).toBe(200)
  return (await response.json()) as SessionList
}

const endSession = (token: string, id: string) => fetch(`${base}/api/v1/auth/sessions/${id}`, { method: 'DELETE', headers: bearer(token) })
const me = (token: string) => fetch(`${base}/api/v1/me`, { headers: bearer(token) })
const refresh = (token: string) =>
  fetch(`${base}/api/v1/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: token }),
  })

async function expectCode(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  expect(((await response.json()) as { code: string }).code).toBe(code)
}

/** A fresh user of the organization (no session yet), made through the API by its admin. */
let made = 0
async function newUser(org = acme, role = 'agent'): Promise<{ id: string; email: string }> {
  const email = `sessions-${++made}@${org.org.name.toLowerCase()}.test`
  const response = await app.request('/api/v1/users', {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: `Sessions ${made}`, password: PASSWORD, role }),
  })
  expect(response.status).toBe(201)
  return { id: ((await response.json()) as { id: string }).id, email }
}

describe('every login creates a session', () => {
  test('the sid of the access token is the listed session, with what the client sent', async () => {
    const user = await newUser()
    const tokens = await login(user.email, 'Mozilla/5.0 (X11; Linux x86_64) SessionsTest/2.1')
    const { sid, sub } = claims(tokens.access_token)
    expect(sid).toMatch(/^ses_\w+$/)
    expect(sub).toBe(user.id)
    const { sessions, next_page_token } = await sessionsOf(tokens.access_token)
    expect(next_page_token).toBe('')
    const created = new Date(app.clock.now()).toISOString()
    expect(sessions).toEqual([
      {
        id: sid,
        user_id: user.id,
        current: true,
        ip: '127.0.0.1',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64) SessionsTest/2.1',
        auth_methods: ['pwd'],
        mfa_enrollment_only: false,
        created_at: created,
        last_seen_at: created,
        // The refresh token's lifetime: 30 days by default.
        expires_at: new Date(app.clock.now() + 30 * DAY).toISOString(),
      },
    ])
  })

  test('each login is its own session; newest first; current only for the caller', async () => {
    const user = await newUser()
    const logins: Tokens[] = []
    for (let i = 0; i < 3; i++) {
      logins.push(await login(user.email, `client-${i}`))
      app.clock.advance(1000)
    }
    const sids = logins.map((t) => claims(t.access_token).sid)
    expect(new Set(sids).size).toBe(3)
    // Asked with the middle login's token.
    const { sessions } = await sessionsOf(logins[1]!.access_token)
    expect(sessions.map((s) => s.id)).toEqual([...sids].reverse())
    expect(sessions.map((s) => s.user_agent)).toEqual(['client-2', 'client-1', 'client-0'])
    expect(sessions.map((s) => s.current)).toEqual([false, true, false])
    const times = sessions.map((s) => Date.parse(s.created_at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    for (const s of sessions) {
      for (const field of ['created_at', 'last_seen_at', 'expires_at'] as const) expect(s[field]).toMatch(ISO)
      expect(s.user_id).toBe(user.id)
    }
  })

  test("only the caller's own sessions are listed", async () => {
    const a = await newUser()
    const b = await newUser()
    const ta = await login(a.email)
    await login(b.email)
    const { sessions } = await sessionsOf(ta.access_token)
    expect(sessions.map((s) => s.user_id)).toEqual([a.id])
  })
})

describe('paging', () => {
  test('page_size and next_page_token walk every session once, newest first', async () => {
    const user = await newUser()
    const sids: string[] = []
    let last: Tokens | undefined
    for (let i = 0; i < 5; i++) {
      last = await login(user.email)
      sids.push(claims(last.access_token).sid)
      // Two of them share a creation time: the id breaks the tie.
      if (i !== 2) app.clock.advance(1000)
    }
    const seen: string[] = []
    const pageLengths: number[] = []
    let token = ''
    do {
      const page = await sessionsOf(last!.access_token, { page_size: 2, ...(token ? { page_token: token } : {}) })
      seen.push(...page.sessions.map((s) => s.id))
      pageLengths.push(page.sessions.length)
      token = page.next_page_token
    } while (token !== '' && pageLengths.length < 10)
    expect(pageLengths).toEqual([2, 2, 1])
    expect(seen).toEqual([...sids].reverse())
  })

  test('bad paging parameters are 400', async () => {
    const user = await newUser()
    const tokens = await login(user.email)
    await expectCode(await listSessions(tokens.access_token, { page_size: 0 }), 400, 'VALIDATION_FAILED')
    await expectCode(await listSessions(tokens.access_token, { page_size: 101 }), 400, 'VALIDATION_FAILED')
    await expectCode(await listSessions(tokens.access_token, { page_token: 'garbage' }), 400, 'INVALID_PAGE_TOKEN')
  })

  test("a page token of another user's list is refused", async () => {
    const user = await newUser()
    for (let i = 0; i < 3; i++) await login(user.email)
    const admin = acme.users.admin.accessToken
    const page = await sessionsOf(admin, { user_id: user.id, page_size: 1 })
    expect(page.next_page_token).not.toBe('')
    // The same token for the admin's own list (other filters) is not a continuation of it.
    await expectCode(await listSessions(admin, { page_size: 1, page_token: page.next_page_token }), 400, 'INVALID_PAGE_TOKEN')
  })
})

/**
 * What `read` gives once the last-seen write a request started has landed. The request does not wait for
 * it: on SQLite it is done before the response, on PostgreSQL it may still be on its way to the server,
 * so the read is repeated there (the value it waits for is the one asserted, never another).
 */
async function settled<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let value = await read()
  if (TEST_ENGINE === 'sqlite') return value
  for (const deadline = Date.now() + 20_000; value !== expected && Date.now() < deadline; value = await read()) await Bun.sleep(10)
  return value
}

describe('last_seen_at', () => {
  test('moves on API use, at most once a minute', async () => {
    const user = await newUser()
    const tokens = await login(user.email)
    const start = app.clock.now()
    const lastSeen = async () => (await sessionsOf(tokens.access_token)).sessions[0]!.last_seen_at
    // Listing is itself API use: the first use after the login is written.
    app.clock.advance(10_000)
    const first = new Date(start + 10_000).toISOString()
    expect(await settled(lastSeen, first)).toBe(first)
    // Within the minute after that write, further use changes nothing.
    app.clock.advance(30_000)
    expect((await me(tokens.access_token)).status).toBe(200)
    expect(await lastSeen()).toBe(new Date(start + 10_000).toISOString())
    app.clock.advance(29_000)
    expect(await lastSeen()).toBe(new Date(start + 10_000).toISOString())
    // A minute after the last write, the next use is written.
    app.clock.advance(1_000)
    const next = new Date(start + 70_000).toISOString()
    expect(await settled(lastSeen, next)).toBe(next)
    // created_at never moves.
    expect((await sessionsOf(tokens.access_token)).sessions[0]!.created_at).toBe(new Date(start).toISOString())
  })

  test('another session of the same user is not touched', async () => {
    const user = await newUser()
    const quiet = await login(user.email)
    const busy = await login(user.email)
    const start = app.clock.now()
    app.clock.advance(120_000)
    expect((await me(busy.access_token)).status).toBe(200)
    const seen = new Date(start + 120_000).toISOString()
    const byId = async () => new Map((await sessionsOf(busy.access_token)).sessions.map((s) => [s.id, s]))
    await settled(async () => (await byId()).get(claims(busy.access_token).sid)!.last_seen_at, seen)
    const sessions = await byId()
    expect(sessions.get(claims(busy.access_token).sid)!.last_seen_at).toBe(seen)
    expect(sessions.get(claims(quiet.access_token).sid)!.last_seen_at).toBe(new Date(start).toISOString())
  })
})

describe('ended and expired sessions are not listed', () => {
  test('logged out and ended sessions disappear from the list', async () => {
    const user = await newUser()
    const first = await login(user.email)
    const loggedOut = await login(user.email)
    const ended = await login(user.email)
    const kept = await login(user.email)
    expect((await fetch(`${base}/api/v1/auth/logout`, { method: 'POST', headers: bearer(loggedOut.access_token) })).status).toBe(204)
    expect((await endSession(kept.access_token, claims(ended.access_token).sid)).status).toBe(204)
    const ids = (await sessionsOf(kept.access_token)).sessions.map((s) => s.id)
    expect(ids).toEqual([claims(kept.access_token).sid, claims(first.access_token).sid])
  })

  test('a session whose refresh token expired is not listed; a refreshed one lives on', async () => {
    // Its own app: the clock moves by weeks here.
    const clock = new FakeClock()
    const local = await makeTestApp({}, { clock })
    try {
      const { users } = await seedOrganization(local, 'expiry')
      const old = await signIn(local, users.agent.user)
      clock.advance(DAY)
      const keptAt = clock.now()
      const kept = await signIn(local, users.agent.user)
      const list = async (auth: Record<string, string>) =>
        (await json<SessionList>(await local.request('/api/v1/auth/sessions', { headers: auth }))).sessions.map((s) => s.id)
      expect(await list(kept.auth)).toEqual([
        claims(kept.accessToken).sid,
        claims(old.accessToken).sid,
        claims(users.agent.accessToken).sid,
      ])
      // The first sessions' refresh tokens expire 30 days after they were issued; the last one's a day later.
      clock.advance(29 * DAY + 1)
      const renewed = await local.request('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: kept.refreshToken }),
      })
      expect(renewed.status).toBe(200)
      const tokens = await json<Tokens>(renewed)
      const sessions = (await json<SessionList>(await local.request('/api/v1/auth/sessions', { headers: bearer(tokens.access_token) })))
        .sessions
      expect(sessions.map((s) => s.id)).toEqual([claims(kept.accessToken).sid])
      // The refresh pushed its expiry as far as SESSION_MAX_AGE allows: 30 days after its sign-in, not after now.
      expect(sessions[0]!.expires_at).toBe(new Date(keptAt + 30 * DAY).toISOString())
    } finally {
      await local.close()
    }
  })
})

describe('DELETE /api/v1/auth/sessions/{id}', () => {
  test('ends one session: its refresh and access tokens die at once; the others keep working', async () => {
    const user = await newUser()
    const doomed = await login(user.email)
    const other = await login(user.email)
    expect((await me(doomed.access_token)).status).toBe(200)
    const response = await endSession(other.access_token, claims(doomed.access_token).sid)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    await expectCode(await me(doomed.access_token), 401, 'TOKEN_INVALID')
    await expectCode(await refresh(doomed.refresh_token), 401, 'TOKEN_INVALID')
    expect((await me(other.access_token)).status).toBe(200)
    const renewed = await refresh(other.refresh_token)
    expect(renewed.status).toBe(200)
    const next = (await renewed.json()) as Tokens
    expect((await me(next.access_token)).status).toBe(200)
    expect((await sessionsOf(next.access_token)).sessions.map((s) => s.id)).toEqual([claims(other.access_token).sid])
  })

  test('an access token issued by a refresh of the ended session is refused too', async () => {
    const user = await newUser()
    const first = await login(user.email)
    const renewed = (await (await refresh(first.refresh_token)).json()) as Tokens
    const other = await login(user.email)
    expect((await endSession(other.access_token, claims(first.access_token).sid)).status).toBe(204)
    await expectCode(await me(first.access_token), 401, 'TOKEN_INVALID')
    await expectCode(await me(renewed.access_token), 401, 'TOKEN_INVALID')
    await expectCode(await refresh(renewed.refresh_token), 401, 'TOKEN_INVALID')
  })

  test('ending your own current session signs you out', async () => {
    const user = await newUser()
    const tokens = await login(user.email)
    expect((await endSession(tokens.access_token, claims(tokens.access_token).sid)).status).toBe(204)
    await expectCode(await me(tokens.access_token), 401, 'TOKEN_INVALID')
    await expectCode(await refresh(tokens.refresh_token), 401, 'TOKEN_INVALID')
  })

  test('unknown, already ended and expired sessions are 404', async () => {
    const user = await newUser()
    const caller = await login(user.email)
    await expectCode(await endSession(caller.access_token, 'ses_01KAX3M6W9P8T2V5G7H4J3C1QZ'), 404, 'NOT_FOUND')
    await expectCode(await endSession(caller.access_token, 'nonsense'), 404, 'NOT_FOUND')
    const ended = await login(user.email)
    const sid = claims(ended.access_token).sid
    expect((await endSession(caller.access_token, sid)).status).toBe(204)
    await expectCode(await endSession(caller.access_token, sid), 404, 'NOT_FOUND')
  })

  test('a session past its refresh expiry cannot be ended (it is already over)', async () => {
    const clock = new FakeClock()
    const local = await makeTestApp({}, { clock })
    try {
      const { users } = await seedOrganization(local, 'expiry')
      const old = await signIn(local, users.agent.user)
      clock.advance(30 * DAY + 1)
      const fresh = await signIn(local, users.agent.user)
      const response = await local.request(`/api/v1/auth/sessions/${claims(old.accessToken).sid}`, {
        method: 'DELETE',
        headers: fresh.auth,
      })
      expect(response.status).toBe(404)
    } finally {
      await local.close()
    }
  })

  test('the ending is audited as session.ended', async () => {
    const user = await newUser()
    const doomed = await login(user.email)
    const caller = await login(user.email)
    const sid = claims(doomed.access_token).sid
    expect((await endSession(caller.access_token, sid)).status).toBe(204)
    const logs = (await (await fetch(`${base}/api/v1/audit-logs?event=session.ended`, { headers: acme.users.admin.auth })).json()) as {
      audit_logs: {
        actor: { id: string }
        credential_id: string
        target: { type: string; id: string }
        details: Record<string, unknown>
        outcome: string
      }[]
    }
    const record = logs.audit_logs.find((r) => r.target.id === sid)
    expect(record).toMatchObject({
      outcome: 'success',
      actor: { id: user.id },
      credential_id: claims(caller.access_token).sid,
      target: { type: 'session', id: sid },
      details: { user_id: user.id },
    })
  })

  test("survives a restart: the ended session's tokens stay dead on a new process", async () => {
    const dir = dataDir()
    const clock = new FakeClock()
    const first = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    let doomed: Awaited<ReturnType<typeof signIn>>
    let other: Awaited<ReturnType<typeof signIn>>
    try {
      const { users } = await seedOrganization(first, 'restart')
      doomed = await signIn(first, users.agent.user)
      other = await signIn(first, users.agent.user)
      const ended = await first.request(`/api/v1/auth/sessions/${claims(doomed.accessToken).sid}`, {
        method: 'DELETE',
        headers: other.auth,
      })
      expect(ended.status).toBe(204)
    } finally {
      await first.close()
    }
    const second = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    try {
      const refreshIn = (a: TestApp, token: string) =>
        a.request('/api/v1/auth/refresh', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: token }),
        })
      const dead = await second.request('/api/v1/me', { headers: doomed!.auth })
      expect(dead.status).toBe(401)
      expect((await json(dead)).code).toBe('TOKEN_INVALID')
      const deadRefresh = await refreshIn(second, doomed!.refreshToken)
      expect(deadRefresh.status).toBe(401)
      expect((await json(deadRefresh)).code).toBe('TOKEN_INVALID')
      expect((await second.request('/api/v1/me', { headers: other!.auth })).status).toBe(200)
      const ids = (await json<SessionList>(await second.request('/api/v1/auth/sessions', { headers: other!.auth }))).sessions.map(
        (s) => s.id,
      )
      expect(ids).not.toContain(claims(doomed!.accessToken).sid)
      expect(ids).toContain(claims(other!.accessToken).sid)
    } finally {
      await second.close()
    }
  })
})

describe("other users' sessions", () => {
  test.each([
    ['super_admin', 200],
    ['admin', 200],
    ['supervisor', 403],
    ['agent', 403],
    ['viewer', 403],
  ] as const)("%s lists another user's sessions with user_id -> %d", async (role, status) => {
    const target = await newUser()
    const tokens = await login(target.email)
    const response = await listSessions(acme.users[role].accessToken, { user_id: target.id })
    expect(response.status).toBe(status)
    const body = (await response.json()) as SessionList & { code: string }
    if (status === 200) {
      expect(body.sessions.map((s) => s.id)).toEqual([claims(tokens.access_token).sid])
      // Not the caller's session.
      expect(body.sessions[0]!.current).toBe(false)
    } else {
      expect(body.code).toBe('INSUFFICIENT_PERMISSIONS')
    }
  })

  test('anyone may name themselves in user_id', async () => {
    const user = await newUser(acme, 'viewer')
    const tokens = await login(user.email)
    const { sessions } = await sessionsOf(tokens.access_token, { user_id: user.id })
    expect(sessions.map((s) => [s.id, s.current])).toEqual([[claims(tokens.access_token).sid, true]])
  })

  test('a user of another organization, or no user at all, is 404', async () => {
    await expectCode(await listSessions(acme.users.admin.accessToken, { user_id: globex.users.agent.user.id }), 404, 'NOT_FOUND')
    await expectCode(
      await listSessions(acme.users.super_admin.accessToken, { user_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' }),
      404,
      'NOT_FOUND',
    )
  })

  test("an admin ends an agent's session; the agent's tokens die", async () => {
    const target = await newUser()
    const tokens = await login(target.email)
    expect((await endSession(acme.users.admin.accessToken, claims(tokens.access_token).sid)).status).toBe(204)
    await expectCode(await me(tokens.access_token), 401, 'TOKEN_INVALID')
    await expectCode(await refresh(tokens.refresh_token), 401, 'TOKEN_INVALID')
  })

  test.each([
    // who ends, whose session, expected status
    ['supervisor', 'agent', 403],
    ['agent', 'agent', 403],
    ['viewer', 'agent', 403],
    ['admin', 'super_admin', 403],
    ['super_admin', 'admin', 204],
    ['admin', 'admin', 204],
    ['admin', 'supervisor', 204],
  ] as const)('%s ending a session of another %s -> %d', async (actor, targetRole, status) => {
    const target = await newUser(acme, targetRole)
    const tokens = await login(target.email)
    const response = await endSession(acme.users[actor].accessToken, claims(tokens.access_token).sid)
    expect(response.status).toBe(status)
    if (status === 403) {
      expect(((await response.json()) as { code: string }).code).toBe('INSUFFICIENT_PERMISSIONS')
      // Refused means untouched.
      expect((await me(tokens.access_token)).status).toBe(200)
    } else {
      await expectCode(await me(tokens.access_token), 401, 'TOKEN_INVALID')
    }
  })

  test("a session of another organization is 404, even for its super_admin's peer, and stays alive", async () => {
    const target = await newUser(globex)
    const tokens = await login(target.email)
    const sid = claims(tokens.access_token).sid
    await expectCode(await endSession(acme.users.super_admin.accessToken, sid), 404, 'NOT_FOUND')
    await expectCode(await endSession(acme.users.admin.accessToken, sid), 404, 'NOT_FOUND')
    expect((await me(tokens.access_token)).status).toBe(200)
  })
})
