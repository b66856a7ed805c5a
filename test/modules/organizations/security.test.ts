// GET|PATCH /api/v1/organization/security: permissions, allowlist validation (one error per bad entry), normalization, the lock-out guard (409 unless force) and the security.updated audit record.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn, type SeededOrg } from '../../helpers/seed.ts'

const app = await makeTestApp()
const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${server.server!.port}`
afterAll(async () => {
  await server.stop(true)
  await app.close()
})
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')

interface Security {
  allowed_ips: string[]
  max_concurrent_sessions: number | null
  session_limit_policy: string
  mfa_required: boolean
}
interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}
interface AuditRecord {
  event: string
  actor: { type: string; id: string | null }
  credential_id: string | null
  target: { type: string; id: string | null } | null
  details: Record<string, unknown>
  ip: string | null
  outcome: string
}

const DEFAULTS: Security = { allowed_ips: [], max_concurrent_sessions: null, session_limit_policy: 'evict_oldest', mfa_required: false }

/** In-process request: no client address, so any non-empty allowlist excludes the caller. */
function patch(org: SeededOrg, body: unknown, role: keyof SeededOrg['users'] = 'super_admin') {
  return app.request('/api/v1/organization/security', {
    method: 'PATCH',
    headers: { ...org.users[role].auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}
/** Over loopback: the caller is 127.0.0.1. */
function patchOverHttp(org: SeededOrg, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/v1/organization/security`, {
    method: 'PATCH',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}
async function getSecurity(org: SeededOrg): Promise<Security> {
  const response = await app.request('/api/v1/organization/security', { headers: org.users.admin.auth })
  expect(response.status).toBe(200)
  return json<Security>(response)
}
async function securityRecords(org: SeededOrg): Promise<AuditRecord[]> {
  const response = await fetch(`${base}/api/v1/audit-logs?event=security.updated&page_size=100`, { headers: org.users.super_admin.auth })
  expect(response.status).toBe(200)
  return (await json<{ audit_logs: AuditRecord[] }>(response)).audit_logs
}
/** Back to the defaults without an allowlist, straight in the table (a clean slate between tests, not under test). */
async function reset(org: SeededOrg) {
  await app.context.db.raw.run(
    "UPDATE organizations SET allowed_ips = '[]', max_concurrent_sessions = NULL, session_limit_policy = 'evict_oldest', mfa_required = ? WHERE id = ?",
    [false, org.org.id],
  )
}
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }

describe('permissions', () => {
  test.each([
    ['super_admin', 200, 200],
    ['admin', 200, 200],
    ['supervisor', 403, 403],
    ['agent', 403, 403],
    ['viewer', 403, 403],
  ] as const)('%s: GET -> %d, PATCH -> %d', async (role, getStatus, patchStatus) => {
    const got = await app.request('/api/v1/organization/security', { headers: acme.users[role].auth })
    expect(got.status).toBe(getStatus)
    if (getStatus === 403) expect((await json(got)).code).toBe('INSUFFICIENT_PERMISSIONS')
    const patched = await patch(acme, { mfa_required: false }, role)
    expect(patched.status).toBe(patchStatus)
    if (patchStatus === 403) expect((await json(patched)).code).toBe('INSUFFICIENT_PERMISSIONS')
  })

  test('without a credential -> 401', async () => {
    expect((await app.request('/api/v1/organization/security')).status).toBe(401)
    expect(
      (
        await app.request('/api/v1/organization/security', {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{"mfa_required":false}',
        })
      ).status,
    ).toBe(401)
  })
})

describe('GET and PATCH', () => {
  test('the defaults of a new organization', async () => {
    expect(await getSecurity(globex)).toEqual(DEFAULTS)
  })

  test('only the fields sent change; the response is the new settings; other organizations are untouched', async () => {
    try {
      const first = await patch(acme, { max_concurrent_sessions: 3 })
      expect(first.status).toBe(200)
      expect(await json(first)).toEqual({ ...DEFAULTS, max_concurrent_sessions: 3 })
      const second = await patch(acme, { session_limit_policy: 'deny_new' })
      expect(await json(second)).toEqual({ ...DEFAULTS, max_concurrent_sessions: 3, session_limit_policy: 'deny_new' })
      const third = await patch(acme, { max_concurrent_sessions: null })
      expect(await json(third)).toEqual({ ...DEFAULTS, session_limit_policy: 'deny_new' })
      expect(await getSecurity(acme)).toEqual({ ...DEFAULTS, session_limit_policy: 'deny_new' })
      expect(await getSecurity(globex)).toEqual(DEFAULTS)
    } finally {
      await reset(acme)
    }
  })

  test.each([[{}], [{ unknown_field: 1 }], [{ allowed_ips: '10.0.0.1' }], [{ allowed_ips: [7] }], [{ mfa_required: 'yes' }]])(
    'body %p -> 400',
    async (body) => {
      const response = await patch(acme, body)
      expect(response.status).toBe(400)
      expect((await json(response)).code).toBe('VALIDATION_FAILED')
      expect(await getSecurity(acme)).toEqual(DEFAULTS)
    },
  )
})

describe('allowlist validation', () => {
  const BAD = [
    '10.0.0.0/33',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    'example.com',
    '',
    ' 10.0.0.1',
    '10.0.0.1 ',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/-1',
    '10.0.0.0/ 8',
    '2001:db8::/129',
    '2001:db8:::1',
    'fe80::1%eth0',
    '[::1]',
    '[2001:db8::]/32',
    '10.0.0.1:80',
    '*',
    '10.0.0.*',
  ]

  test.each(BAD.map((entry) => [entry]))('%p alone -> 400 naming allowed_ips.0', async (entry) => {
    const response = await patch(acme, { allowed_ips: [entry], force: true })
    expect(response.status).toBe(400)
    const body = await json<ErrorBody>(response)
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.errors?.map((e) => e.field)).toEqual(['allowed_ips.0'])
    expect(await getSecurity(acme)).toEqual(DEFAULTS)
  })

  test('one error per bad entry, each naming its index; nothing is applied', async () => {
    const recorded = (await securityRecords(acme)).length
    const response = await patch(acme, { allowed_ips: ['10.0.0.1', 'nope', '192.168.0.0/16', '300.0.0.0/8', '::1', 'nope'], force: true })
    expect(response.status).toBe(400)
    const body = await json<ErrorBody>(response)
    expect(body.errors?.map((e) => e.field)).toEqual(['allowed_ips.1', 'allowed_ips.3', 'allowed_ips.5'])
    // Each message names the entry it is about.
    expect(body.errors![0]!.message).toContain('nope')
    expect(body.errors![1]!.message).toContain('300.0.0.0/8')
    expect(await getSecurity(acme)).toEqual(DEFAULTS)
    expect((await securityRecords(acme)).length).toBe(recorded)
  })

  test('IPv4, IPv4 CIDR, IPv6, IPv6 CIDR and IPv4-mapped entries are accepted and kept as written', async () => {
    const entries = [
      '203.0.113.7',
      '10.0.0.0/8',
      '192.168.1.0/24',
      '0.0.0.0/0',
      '2001:db8::1',
      '2001:db8::/32',
      'fd00::/8',
      '::/0',
      '::1',
      '::ffff:198.51.100.1',
      '127.0.0.1/32',
    ]
    try {
      const response = await patch(acme, { allowed_ips: entries, force: true })
      expect(response.status).toBe(200)
      expect((await json<Security>(response)).allowed_ips).toEqual(entries)
    } finally {
      await reset(acme)
    }
  })

  test('duplicates are collapsed, first occurrence order kept', async () => {
    try {
      const response = await patch(acme, { allowed_ips: ['10.0.0.0/8', '::1', '10.0.0.0/8', '203.0.113.7', '::1'], force: true })
      expect(response.status).toBe(200)
      expect((await json<Security>(response)).allowed_ips).toEqual(['10.0.0.0/8', '::1', '203.0.113.7'])
    } finally {
      await reset(acme)
    }
  })

  test('one entry per range, however it is spelled: the first spelling is kept', async () => {
    try {
      const entries = [
        '::1',
        '0:0:0:0:0:0:0:1',
        '10.0.0.1',
        '10.0.0.1/32',
        '::ffff:10.0.0.1',
        '10.1.2.3/8',
        '10.0.0.0/8',
        '2001:DB8::/32',
        '2001:db8::/32',
        '10.0.0.0/16',
      ]
      const response = await patch(acme, { allowed_ips: entries, force: true })
      expect(response.status).toBe(200)
      expect((await json<Security>(response)).allowed_ips).toEqual(['::1', '10.0.0.1', '10.1.2.3/8', '2001:DB8::/32', '10.0.0.0/16'])
    } finally {
      await reset(acme)
    }
  })

  test('at most 200 entries', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256}`)
    const response = await patch(acme, { allowed_ips: many, force: true })
    expect(response.status).toBe(400)
    expect((await json<ErrorBody>(response)).errors?.map((e) => e.field)).toEqual(['allowed_ips'])
    try {
      expect((await patch(acme, { allowed_ips: many.slice(0, 200), force: true })).status).toBe(200)
    } finally {
      await reset(acme)
    }
  })

  test('an overlong entry is one more bad entry: every bad entry is still named', async () => {
    const response = await patch(acme, { allowed_ips: ['10.0.0.1', `2001:db8::1/128${'0'.repeat(5000)}`, 'bad'], force: true })
    expect(response.status).toBe(400)
    const errors = (await json<ErrorBody>(response)).errors!
    expect(errors.map((e) => e.field)).toEqual(['allowed_ips.1', 'allowed_ips.2'])
    // The message quotes a bounded part of the overlong entry, not all of it.
    expect(errors[0]!.message.length).toBeLessThan(200)
    expect(await getSecurity(acme)).toEqual(DEFAULTS)
  })
})

describe('the lock-out guard', () => {
  test('over loopback: a list without 127.0.0.1 -> 409 CONFLICT and nothing changes', async () => {
    const org = await seedOrganization(app, 'guard1')
    const response = await patchOverHttp(org, { allowed_ips: ['10.0.0.0/8', '2001:db8::/32'] })
    expect(response.status).toBe(409)
    const body = await json<ErrorBody>(response)
    expect(body.code).toBe('CONFLICT')
    expect(body.message).toContain('127.0.0.1')
    expect(await getSecurity(org)).toEqual(DEFAULTS)
    expect(await securityRecords(org)).toEqual([])
    // force: false is no force.
    expect((await patchOverHttp(org, { allowed_ips: ['10.0.0.0/8'], force: false })).status).toBe(409)
  })

  test.each([[['127.0.0.1']], [['127.0.0.0/8']], [['10.0.0.0/8', '127.0.0.1/32']], [['::ffff:127.0.0.1']], [['0.0.0.0/0']]])(
    'over loopback: %p includes the caller -> 200 without force',
    async (list) => {
      const org = await seedOrganization(app, `guard-ok-${list.join('-').replaceAll(/[^a-z0-9]/gi, '')}`)
      const response = await patchOverHttp(org, { allowed_ips: list })
      expect(response.status).toBe(200)
      expect((await json<Security>(response)).allowed_ips).toEqual(list)
      // And the caller indeed still gets in.
      expect((await fetch(`${base}/api/v1/organization/security`, { headers: org.users.admin.auth })).status).toBe(200)
    },
  )

  test('with force: applied, audited as forced, and the caller is then locked out', async () => {
    const org = await seedOrganization(app, 'guard2')
    const response = await patchOverHttp(org, { allowed_ips: ['10.0.0.0/8'], force: true })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ ...DEFAULTS, allowed_ips: ['10.0.0.0/8'] })
    const next = await fetch(`${base}/api/v1/organization/security`, { headers: org.users.super_admin.auth })
    expect(next.status).toBe(403)
    expect((await json(next)).code).toBe('IP_NOT_ALLOWED')
    await reset(org)
    const [record] = await securityRecords(org)
    expect(record!.details).toEqual({ changed: ['allowed_ips'], allowed_ips: { from: [], to: ['10.0.0.0/8'] }, forced: true })
  })

  test('an unknown caller address (no peer) is never inside a non-empty list: 409 unless forced', async () => {
    const response = await patch(acme, { allowed_ips: ['0.0.0.0/0', '::/0'] })
    expect(response.status).toBe(409)
    expect((await json(response)).code).toBe('CONFLICT')
  })

  test('emptying the list or leaving it out never needs force', async () => {
    const org = await seedOrganization(app, 'guard3')
    expect((await patchOverHttp(org, { allowed_ips: ['127.0.0.1'] })).status).toBe(200)
    // Other fields while a list is in place: no guard.
    expect((await patch(org, { max_concurrent_sessions: 4 })).status).toBe(403) // in-process: no address, locked out by the list itself
    expect((await patchOverHttp(org, { max_concurrent_sessions: 4 })).status).toBe(200)
    expect((await patchOverHttp(org, { allowed_ips: [] })).status).toBe(200)
    expect(await getSecurity(org)).toEqual({ ...DEFAULTS, max_concurrent_sessions: 4 })
  })
})

describe('security.updated', () => {
  test('records who changed what, from and to; a PATCH that changes nothing records nothing', async () => {
    const org = await seedOrganization(app, 'audited')
    const response = await fetch(`${base}/api/v1/organization/security`, {
      method: 'PATCH',
      headers: {
        ...org.users.admin.auth,
        'content-type': 'application/json',
        'user-agent': 'SecurityTest/1',
        'x-request-id': 'security-change-1',
      },
      body: JSON.stringify({ allowed_ips: ['127.0.0.0/8', '10.1.0.0/16'], max_concurrent_sessions: 2, session_limit_policy: 'deny_new' }),
    })
    expect(response.status).toBe(200)
    const records = await securityRecords(org)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      outcome: 'success',
      actor: { type: 'user', id: org.users.admin.user.id },
      credential_id: claims(org.users.admin.accessToken).sid,
      target: { type: 'organization', id: org.org.id },
      ip: '127.0.0.1',
      user_agent: 'SecurityTest/1',
      request_id: 'security-change-1',
    })
    expect(records[0]!.details).toEqual({
      changed: ['allowed_ips', 'max_concurrent_sessions', 'session_limit_policy'],
      allowed_ips: { from: [], to: ['127.0.0.0/8', '10.1.0.0/16'] },
      max_concurrent_sessions: { from: null, to: 2 },
      session_limit_policy: { from: 'evict_oldest', to: 'deny_new' },
    })
    // The same values again: no change, no record.
    expect((await patchOverHttp(org, { allowed_ips: ['127.0.0.0/8', '10.1.0.0/16'], max_concurrent_sessions: 2 })).status).toBe(200)
    expect(await securityRecords(org)).toHaveLength(1)
    // A duplicate that collapses to the same list is no change either.
    expect((await patchOverHttp(org, { allowed_ips: ['127.0.0.0/8', '10.1.0.0/16', '127.0.0.0/8'] })).status).toBe(200)
    expect(await securityRecords(org)).toHaveLength(1)
    // mfa_required is a security setting too. Turning it on ends the sessions of users without MFA,
    // the caller's included (mfa-required-enforcement.test.ts): the records are read with a new one.
    expect((await patchOverHttp(org, { mfa_required: true })).status).toBe(200)
    expect((await fetch(`${base}/api/v1/audit-logs`, { headers: org.users.super_admin.auth })).status).toBe(401)
    const again = await signIn(app, org.users.super_admin.user)
    const latest = (await securityRecords({ ...org, users: { ...org.users, super_admin: again } }))[0]!
    expect(latest.details).toEqual({ changed: ['mfa_required'], mfa_required: { from: false, to: true } })
  })
})
