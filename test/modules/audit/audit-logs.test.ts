// GET /api/v1/audit-logs over loopback: permissions, organization scope, order and paging, filters, the record shape, every event the auth flows write (outcome, reason, request id), and that no record holds a secret.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

const app = await makeTestApp()
const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${server.server!.port}`
afterAll(async () => {
  await server.stop(true)
  await app.close()
})
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const HEX64 = /^[0-9a-f]{64}$/
const USER_AGENT = 'AuditTest/3.2 (loopback)'

interface AuditRecord {
  id: string
  seq: number
  created_at: string
  organization_id: string | null
  actor: { type: string; id: string | null }
  credential_id: string | null
  event: string
  outcome: 'success' | 'failure'
  reason: string | null
  ip: string | null
  user_agent: string | null
  request_id: string | null
  target: { type: string; id: string | null } | null
  details: Record<string, unknown>
  prev_hash: string
  hash: string
}
interface AuditList {
  audit_logs: AuditRecord[]
  next_page_token: string
  total_count?: number
}
interface Tokens {
  access_token: string
  refresh_token: string
}

/** Every token and password this file hands out or sends: none may ever appear in the audit log. */
const secrets = new Set<string>([PASSWORD])
for (const org of [acme, globex]) for (const u of Object.values(org.users)) secrets.add(u.accessToken).add(u.refreshToken)

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }
let requests = 0
/** A unique X-Request-Id for one request, so its records can be found. */
const rid = (label: string) => `audit-${label}-${++requests}`

/** A request over loopback with our user agent and X-Request-Id. */
function call(path: string, init: { method?: string; auth?: Record<string, string>; body?: unknown; requestId?: string } = {}) {
  return fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'user-agent': USER_AGENT,
      ...(init.requestId ? { 'x-request-id': init.requestId } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.auth,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

async function login(email: string, password: string, requestId?: string) {
  const response = await call('/api/v1/auth/login', { body: { email, password }, requestId })
  secrets.add(password)
  if (response.status === 200) {
    const tokens = (await response.clone().json()) as Tokens
    secrets.add(tokens.access_token).add(tokens.refresh_token)
  }
  return response
}

async function list(auth: Record<string, string>, params: Record<string, string | number> = {}) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()
  return call(`/api/v1/audit-logs${query ? `?${query}` : ''}`, { auth })
}

async function page(auth: Record<string, string>, params: Record<string, string | number> = {}): Promise<AuditList> {
  const response = await list(auth, params)
  expect(response.status).toBe(200)
  return (await response.json()) as AuditList
}

/** Every record the caller may see with these filters, following next_page_token. */
async function walk(org: SeededOrg, params: Record<string, string | number> = {}): Promise<AuditRecord[]> {
  const out: AuditRecord[] = []
  let token = ''
  let pages = 0
  do {
    const body = await page(org.users.admin.auth, { page_size: 100, ...params, ...(token ? { page_token: token } : {}) })
    out.push(...body.audit_logs)
    token = body.next_page_token
  } while (token !== '' && ++pages < 100)
  return out
}

/** The records written by the request with this id. */
async function recordsOf(org: SeededOrg, requestId: string): Promise<AuditRecord[]> {
  return (await walk(org)).filter((r) => r.request_id === requestId)
}

async function newUser(org: SeededOrg, role = 'agent', password = PASSWORD): Promise<{ id: string; email: string }> {
  const email = `${crypto.randomUUID().slice(0, 8)}@${org.org.name.toLowerCase()}.test`
  const response = await call('/api/v1/users', { auth: org.users.super_admin.auth, body: { email, name: 'Audit Subject', password, role } })
  expect(response.status).toBe(201)
  return { id: ((await response.json()) as { id: string }).id, email }
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = (await response.json()) as { code: string; errors?: { field: string }[] }
  expect(body.code).toBe(code)
  return body
}

describe('access', () => {
  test.each([
    ['super_admin', 200],
    ['admin', 200],
    ['supervisor', 403],
    ['agent', 403],
    ['viewer', 403],
  ] as const)('%s -> %d', async (role, status) => {
    const response = await list(acme.users[role].auth)
    expect(response.status).toBe(status)
    if (status === 403) expect(((await response.json()) as { code: string }).code).toBe('INSUFFICIENT_PERMISSIONS')
  })

  test('without a credential -> 401', async () => {
    expect((await list({})).status).toBe(401)
  })

  test("only the caller's organization", async () => {
    await login(globex.users.agent.user.email, PASSWORD)
    await login(acme.users.agent.user.email, PASSWORD)
    const acmeRecords = await walk(acme)
    const globexRecords = await walk(globex)
    expect(acmeRecords.length).toBeGreaterThan(0)
    expect(globexRecords.length).toBeGreaterThan(0)
    expect(new Set(acmeRecords.map((r) => r.organization_id))).toEqual(new Set([acme.org.id]))
    expect(new Set(globexRecords.map((r) => r.organization_id))).toEqual(new Set([globex.org.id]))
    // Not even by naming a user of the other organization.
    expect(await walk(acme, { actor_id: globex.users.agent.user.id })).toEqual([])
  })
})

describe('order and paging', () => {
  test('newest first: seq strictly decreasing and created_at never increasing, across pages', async () => {
    for (let i = 0; i < 4; i++) {
      await login(acme.users.viewer.user.email, PASSWORD)
      app.clock.advance(1000)
    }
    const all = await walk(acme)
    const pages: AuditRecord[] = []
    let token = ''
    let count = 0
    do {
      const body = await page(acme.users.admin.auth, { page_size: 3, ...(token ? { page_token: token } : {}) })
      expect(body.audit_logs.length).toBeLessThanOrEqual(3)
      pages.push(...body.audit_logs)
      token = body.next_page_token
    } while (token !== '' && ++count < 200)
    expect(pages.map((r) => r.id)).toEqual(all.map((r) => r.id))
    const seqs = all.map((r) => r.seq)
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs.length - i))
    const times = all.map((r) => Date.parse(r.created_at))
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]!)
  })

  test('include_total counts what the filters select', async () => {
    const body = await page(acme.users.admin.auth, { event: 'user.created', include_total: 'true', page_size: 2 })
    expect(body.total_count).toBe((await walk(acme, { event: 'user.created' })).length)
    expect(body.audit_logs).toHaveLength(2)
  })

  test('a page token is bound to its filters and organization', async () => {
    const first = await page(acme.users.admin.auth, { event: 'user.created', page_size: 1 })
    expect(first.next_page_token).not.toBe('')
    await expectError(
      await list(acme.users.admin.auth, { event: 'login.success', page_size: 1, page_token: first.next_page_token }),
      400,
      'INVALID_PAGE_TOKEN',
    )
    await expectError(
      await list(globex.users.admin.auth, { event: 'user.created', page_size: 1, page_token: first.next_page_token }),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })
})

describe('filters', () => {
  // Its own organization and its own times: T1 admin signs in, T2 the agent mistypes, T3 the agent signs in.
  const MINUTE = 60_000
  let org: SeededOrg
  let t0: number
  const at = (ms: number) => new Date(ms).toISOString()

  test('setup', async () => {
    org = await seedOrganization(app, 'filters')
    t0 = app.clock.now()
    app.clock.advance(MINUTE)
    expect((await login(org.users.admin.user.email, PASSWORD)).status).toBe(200)
    app.clock.advance(MINUTE)
    expect((await login(org.users.agent.user.email, 'not my password')).status).toBe(401)
    app.clock.advance(MINUTE)
    expect((await login(org.users.agent.user.email, PASSWORD)).status).toBe(200)
  })

  const events = (records: AuditRecord[]) => records.map((r) => `${r.event}@${(Date.parse(r.created_at) - t0) / MINUTE}`)

  test('event', async () => {
    expect(events(await walk(org, { event: 'login.success' }))).toEqual(['login.success@3', 'login.success@1'])
    expect(events(await walk(org, { event: 'login.failure' }))).toEqual(['login.failure@2'])
    expect(await walk(org, { event: 'no.such.event' })).toEqual([])
  })

  test('actor_id', async () => {
    const records = await walk(org, { actor_id: org.users.agent.user.id })
    expect(events(records)).toEqual(['login.success@3', 'login.failure@2'])
    for (const r of records) expect(r.actor.id).toBe(org.users.agent.user.id)
    // The seeding operator.
    expect(new Set((await walk(org, { actor_id: 'cli' })).map((r) => r.event))).toEqual(new Set(['user.created']))
  })

  test('since (inclusive) and until (exclusive)', async () => {
    expect(events(await walk(org, { since: at(t0 + 2 * MINUTE) }))).toEqual(['login.success@3', 'login.failure@2'])
    expect(events(await walk(org, { since: at(t0 + 2 * MINUTE + 1) }))).toEqual(['login.success@3'])
    expect(events(await walk(org, { until: at(t0 + 2 * MINUTE) }))).toEqual(['login.success@1', ...Array(5).fill('user.created@0')])
    expect(events(await walk(org, { since: at(t0 + MINUTE), until: at(t0 + 3 * MINUTE) }))).toEqual(['login.failure@2', 'login.success@1'])
    // Any ISO 8601 offset names the same instant.
    const plusOne = new Date(t0 + 2 * MINUTE + 3_600_000).toISOString().replace('Z', '+01:00')
    expect(events(await walk(org, { since: plusOne }))).toEqual(['login.success@3', 'login.failure@2'])
    // RFC 3339 lets the T and Z be lowercase; whole seconds need no fraction.
    expect(
      events(
        await walk(org, {
          since: at(t0 + 2 * MINUTE)
            .toLowerCase()
            .replace('.000', ''),
        }),
      ),
    ).toEqual(['login.success@3', 'login.failure@2'])
    // An empty window.
    expect(await walk(org, { since: at(t0 + MINUTE), until: at(t0 + MINUTE) })).toEqual([])
  })

  test('combined', async () => {
    expect(events(await walk(org, { event: 'login.success', actor_id: org.users.agent.user.id }))).toEqual(['login.success@3'])
    expect(events(await walk(org, { event: 'login.success', since: at(t0), until: at(t0 + 2 * MINUTE) }))).toEqual(['login.success@1'])
  })

  test.each([
    [{ since: 'yesterday' }, 'since'],
    [{ until: 'soon' }, 'until'],
    [{ since: '2026-13-01T00:00:00Z' }, 'since'],
    [{ until: '2026-01-01T25:00:00Z' }, 'until'],
    [{ since: '' }, 'since'],
    // What Date.parse would take but is no RFC 3339 date-time, or names a moment that does not exist.
    [{ since: '2026-02-30T00:00:00Z' }, 'since'],
    [{ until: '2026-01-01T24:00:00Z' }, 'until'],
    [{ since: '01/06/2026' }, 'since'],
    [{ since: '2026-01-01' }, 'since'],
    [{ until: 'Thu, 01 Jan 2026 12:00:00 GMT' }, 'until'],
    [{ since: '2026-01-01T12:00:00' }, 'since'],
    [{ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 'until'],
  ] as [Record<string, string>, string][])('bad %p -> 400 naming %s', async (params, field) => {
    const body = await expectError(await list(org.users.admin.auth, params), 400, 'VALIDATION_FAILED')
    expect(body.errors?.map((e) => e.field)).toContain(field)
  })
})

describe('record shape', () => {
  test('every field, the request id being the X-Request-Id sent', async () => {
    const requestId = rid('shape')
    const response = await login(acme.users.supervisor.user.email, PASSWORD, requestId)
    expect(response.status).toBe(200)
    const tokens = (await response.json()) as Tokens
    const records = await recordsOf(acme, requestId)
    expect(records).toHaveLength(1)
    const r = records[0]!
    expect(Object.keys(r).sort()).toEqual(
      [
        'id',
        'seq',
        'created_at',
        'organization_id',
        'actor',
        'credential_id',
        'event',
        'outcome',
        'reason',
        'ip',
        'user_agent',
        'request_id',
        'target',
        'details',
        'prev_hash',
        'hash',
      ].sort(),
    )
    expect(r).toEqual({
      id: expect.stringMatching(/^aud_\w{26}$/),
      seq: expect.any(Number),
      created_at: new Date(app.clock.now()).toISOString(),
      organization_id: acme.org.id,
      actor: { type: 'user', id: acme.users.supervisor.user.id },
      credential_id: claims(tokens.access_token).sid,
      event: 'login.success',
      outcome: 'success',
      reason: null,
      ip: '127.0.0.1',
      user_agent: USER_AGENT,
      request_id: requestId,
      target: { type: 'user', id: acme.users.supervisor.user.id },
      details: { amr: ['pwd'] },
      prev_hash: expect.stringMatching(HEX64),
      hash: expect.stringMatching(HEX64),
    })
    expect(r.created_at).toMatch(ISO)
    // The response carried the same request id.
    expect(response.headers.get('x-request-id')).toBe(requestId)
  })

  test('without an X-Request-Id the record carries the one the server made and returned', async () => {
    const response = await login(acme.users.supervisor.user.email, PASSWORD)
    const made = response.headers.get('x-request-id')
    expect(made).toBeTruthy()
    expect(await recordsOf(acme, made!)).toHaveLength(1)
  })
})

describe('recorded events', () => {
  test('login.success and login.failure (wrong_password, user_disabled)', async () => {
    const ok = rid('login-ok')
    expect((await login(acme.users.agent.user.email, PASSWORD, ok)).status).toBe(200)
    expect((await recordsOf(acme, ok)).map((r) => [r.event, r.outcome, r.reason])).toEqual([['login.success', 'success', null]])

    const wrong = rid('login-wrong')
    expect((await login(acme.users.agent.user.email, 'Tr0ub4dor&3-wrong', wrong)).status).toBe(401)
    const [failure] = await recordsOf(acme, wrong)
    expect(failure).toMatchObject({
      event: 'login.failure',
      outcome: 'failure',
      reason: 'wrong_password',
      actor: { type: 'user', id: acme.users.agent.user.id },
      target: { type: 'user', id: acme.users.agent.user.id },
      credential_id: null,
    })

    const leaver = await newUser(acme)
    expect((await call(`/api/v1/users/${leaver.id}`, { method: 'DELETE', auth: acme.users.admin.auth })).status).toBe(204)
    const disabled = rid('login-disabled')
    const response = await login(leaver.email, PASSWORD, disabled)
    expect(response.status).toBe(401)
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_CREDENTIALS')
    expect((await recordsOf(acme, disabled)).map((r) => [r.event, r.outcome, r.reason, r.target?.id])).toEqual([
      ['login.failure', 'failure', 'user_disabled', leaver.id],
    ])
  })

  test("an unknown e-mail goes to the installation chain, in no organization's list", async () => {
    const ghost = rid('login-ghost')
    expect((await login('Ghost@Nowhere.test', 'a guessed password', ghost)).status).toBe(401)
    for (const org of [acme, globex]) expect(await recordsOf(org, ghost)).toEqual([])
    const row = await app.context.db.raw.get<Record<string, unknown>>(
      'SELECT organization_id, actor_type, actor_id, event, outcome, reason, details FROM audit_logs WHERE request_id = ?',
      [ghost],
    )
    expect(row).toEqual({
      organization_id: null,
      actor_type: 'anonymous',
      actor_id: null,
      event: 'login.failure',
      outcome: 'failure',
      reason: 'unknown_email',
      details: JSON.stringify({ email: 'ghost@nowhere.test' }),
    })
  })

  test('token.refresh, token.refresh_reuse_detected and logout', async () => {
    const tokens = (await (await login(acme.users.agent.user.email, PASSWORD)).json()) as Tokens
    const sid = claims(tokens.access_token).sid
    const r1 = rid('refresh')
    const refreshed = await call('/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token }, requestId: r1 })
    expect(refreshed.status).toBe(200)
    const next = (await refreshed.json()) as Tokens
    secrets.add(next.access_token).add(next.refresh_token)
    expect((await recordsOf(acme, r1)).map((r) => [r.event, r.outcome, r.target, r.credential_id])).toEqual([
      ['token.refresh', 'success', { type: 'session', id: sid }, sid],
    ])

    const r2 = rid('reuse')
    expect((await call('/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token }, requestId: r2 })).status).toBe(401)
    const [reuse] = await recordsOf(acme, r2)
    expect(reuse).toMatchObject({
      event: 'token.refresh_reuse_detected',
      outcome: 'failure',
      reason: 'refresh_token_reuse',
      target: { type: 'session', id: sid },
      details: { generation: 1 },
    })

    const other = (await (await login(acme.users.agent.user.email, PASSWORD)).json()) as Tokens
    const r3 = rid('logout')
    expect(
      (await call('/api/v1/auth/logout', { method: 'POST', auth: { authorization: `Bearer ${other.access_token}` }, requestId: r3 }))
        .status,
    ).toBe(204)
    expect((await recordsOf(acme, r3)).map((r) => [r.event, r.outcome, r.target])).toEqual([
      ['logout', 'success', { type: 'session', id: claims(other.access_token).sid }],
    ])
  })

  test('password.change: failure with its reason, then success with the sessions it ended', async () => {
    const user = await newUser(acme)
    const first = (await (await login(user.email, PASSWORD)).json()) as Tokens
    await login(user.email, PASSWORD)
    await login(user.email, PASSWORD)
    const auth = { authorization: `Bearer ${first.access_token}` }
    const newPassword = 'a brand new passphrase 42'
    secrets.add(newPassword).add('certainly not it')

    const bad = rid('password-bad')
    expect(
      (
        await call('/api/v1/auth/password', {
          auth,
          body: { current_password: 'certainly not it', new_password: newPassword },
          requestId: bad,
        })
      ).status,
    ).toBe(400)
    expect((await recordsOf(acme, bad)).map((r) => [r.event, r.outcome, r.reason, r.actor.id])).toEqual([
      ['password.change', 'failure', 'wrong_current_password', user.id],
    ])

    const good = rid('password-good')
    expect(
      (await call('/api/v1/auth/password', { auth, body: { current_password: PASSWORD, new_password: newPassword }, requestId: good }))
        .status,
    ).toBe(204)
    const [record] = await recordsOf(acme, good)
    expect(record).toMatchObject({
      event: 'password.change',
      outcome: 'success',
      reason: null,
      target: { type: 'user', id: user.id },
      details: { sessions_ended: 2 },
    })
  })

  test('session.ended and session.evicted', async () => {
    const user = await newUser(acme)
    const a = (await (await login(user.email, PASSWORD)).json()) as Tokens
    const b = (await (await login(user.email, PASSWORD)).json()) as Tokens
    const ended = rid('end')
    expect(
      (
        await call(`/api/v1/auth/sessions/${claims(a.access_token).sid}`, {
          method: 'DELETE',
          auth: acme.users.admin.auth,
          requestId: ended,
        })
      ).status,
    ).toBe(204)
    expect((await recordsOf(acme, ended)).map((r) => [r.event, r.actor.id, r.target, r.details])).toEqual([
      ['session.ended', acme.users.admin.user.id, { type: 'session', id: claims(a.access_token).sid }, { user_id: user.id }],
    ])

    const evicting = await seedOrganization(app, 'evicting')
    const limit = await call('/api/v1/organization/security', {
      method: 'PATCH',
      auth: evicting.users.super_admin.auth,
      body: { max_concurrent_sessions: 1, session_limit_policy: 'evict_oldest' },
    })
    expect(limit.status).toBe(200)
    const evicted = rid('evict')
    // The seeded session is the one to go.
    expect((await login(evicting.users.agent.user.email, PASSWORD, evicted)).status).toBe(200)
    const records = await recordsOf(evicting, evicted)
    expect(records.map((r) => [r.event, r.outcome, r.reason])).toEqual([
      ['login.success', 'success', null],
      ['session.evicted', 'success', 'session_limit'],
    ])
    expect(records[1]!.target).toEqual({ type: 'session', id: claims(evicting.users.agent.accessToken).sid })
    void b
  })

  test('security.updated', async () => {
    const requestId = rid('security')
    expect(
      (
        await call('/api/v1/organization/security', {
          method: 'PATCH',
          auth: globex.users.admin.auth,
          body: { max_concurrent_sessions: 9 },
          requestId,
        })
      ).status,
    ).toBe(200)
    expect((await recordsOf(globex, requestId)).map((r) => [r.event, r.actor.id, r.details])).toEqual([
      [
        'security.updated',
        globex.users.admin.user.id,
        { changed: ['max_concurrent_sessions'], max_concurrent_sessions: { from: null, to: 9 } },
      ],
    ])
  })

  test('user.created, user.updated (role change from and to) and user.deleted', async () => {
    const created = rid('user-created')
    const email = 'audited.user@acme.test'
    const response = await call('/api/v1/users', {
      auth: acme.users.admin.auth,
      body: { email, name: 'Audited', password: PASSWORD, role: 'agent' },
      requestId: created,
    })
    expect(response.status).toBe(201)
    const id = ((await response.json()) as { id: string }).id
    expect((await recordsOf(acme, created)).map((r) => [r.event, r.actor, r.target, r.details])).toEqual([
      ['user.created', { type: 'user', id: acme.users.admin.user.id }, { type: 'user', id }, { role: 'agent' }],
    ])

    const promoted = rid('user-role')
    expect(
      (
        await call(`/api/v1/users/${id}`, {
          method: 'PATCH',
          auth: acme.users.admin.auth,
          body: { role: 'supervisor' },
          requestId: promoted,
        })
      ).status,
    ).toBe(200)
    expect((await recordsOf(acme, promoted)).map((r) => [r.event, r.target, r.details])).toEqual([
      ['user.updated', { type: 'user', id }, { changed: ['role'], role: { from: 'agent', to: 'supervisor' } }],
    ])

    const deleted = rid('user-deleted')
    expect((await call(`/api/v1/users/${id}`, { method: 'DELETE', auth: acme.users.admin.auth, requestId: deleted })).status).toBe(204)
    expect((await recordsOf(acme, deleted)).map((r) => [r.event, r.target, r.details])).toEqual([
      ['user.deleted', { type: 'user', id }, { changed: ['status'], status: { from: 'active', to: 'disabled' } }],
    ])
  })

  test("a personal access token's value is never recorded", async () => {
    const response = await call('/api/v1/api-keys', {
      auth: acme.users.admin.auth,
      body: { name: 'audit scan', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() },
    })
    expect(response.status).toBe(201)
    const token = ((await response.json()) as { token: string }).token
    secrets.add(token)
    expect((await call('/api/v1/me', { auth: { 'x-api-key': token } })).status).toBe(200)
  })
})

describe('no secrets', () => {
  test('no record, in any organization or the installation chain, holds a password or a token', async () => {
    const everything = [
      JSON.stringify(await walk(acme)),
      JSON.stringify(await walk(globex)),
      JSON.stringify(await app.context.db.raw.all('SELECT * FROM audit_logs')),
    ].join('\n')
    expect(secrets.size).toBeGreaterThan(20)
    const found = [...secrets].filter((secret) => everything.includes(secret))
    expect(found).toEqual([])
    // Nor anything shaped like one (a JWT, a refresh token, a whole personal access token; the PAT's short prefix is fine).
    expect(everything.match(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/)).toBeNull()
    expect(everything.match(/rt_[\w-]{43}/)).toBeNull()
    expect(everything.match(/pat_live_\w{30,}/)).toBeNull()
  })
})
