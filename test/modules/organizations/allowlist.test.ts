// IP allowlist enforcement over real loopback servers: every credential path (access token, PAT, refresh, login), CIDR, IPv4-mapped IPv6, IPv6 loopback, trusted proxies, and the throttled ip.denied record.
import { afterAll, describe, expect, test } from 'bun:test'
import { totpAt } from '../../helpers/totp.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

const DAY = 86_400_000

interface Tokens {
  access_token: string
  refresh_token: string
}
interface AuditRecord {
  event: string
  outcome: string
  reason: string | null
  ip: string | null
  actor: { type: string; id: string | null }
  credential_id: string | null
  details: Record<string, unknown>
}

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }

/** A real app listening on `hostname`, seeded with two organizations, and a client for it. */
async function serve(hostname: string, settings: Record<string, string> = {}) {
  const app = await makeTestApp(settings)
  const server = app.app.listen({ port: 0, hostname })
  const port = server.server!.port
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  return {
    app,
    port,
    acme,
    globex,
    close: async () => {
      await server.stop(true)
      await app.close()
    },
  }
}
type Served = Awaited<ReturnType<typeof serve>>

/** A client of a served app, connecting to `host` (an address literal, IPv6 in brackets), optionally sending X-Forwarded-For. */
function client(s: Served, host = '127.0.0.1', forwardedFor?: string) {
  const base = `http://${host}:${s.port}`
  const extra: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }
  const c = {
    base,
    get: (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers: { ...headers, ...extra } }),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers, ...extra },
        body: JSON.stringify(body),
      }),
    me: (token: string) => c.get('/api/v1/me', { authorization: `Bearer ${token}` }),
    meWithKey: (pat: string) => c.get('/api/v1/me', { 'x-api-key': pat }),
    meWithBearerKey: (pat: string) => c.get('/api/v1/me', { authorization: `Bearer ${pat}` }),
    refresh: (token: string) => c.post('/api/v1/auth/refresh', { refresh_token: token }),
    login: (email: string, password = PASSWORD) => c.post('/api/v1/auth/login', { email, password }),
  }
  return c
}

/** Puts a list in place directly in the table: the state under test is the enforcement, not the PATCH (tested in security.test.ts). */
async function setAllowlist(app: TestApp, org: SeededOrg, list: string[]) {
  await app.context.db.raw.run('UPDATE organizations SET allowed_ips = ? WHERE id = ?', [JSON.stringify(list), org.org.id])
}

async function createPat(c: ReturnType<typeof client>, app: TestApp, accessToken: string): Promise<string> {
  const response = await c.post(
    '/api/v1/api-keys',
    { name: 'allowlist test', expires_at: new Date(app.clock.now() + 30 * DAY).toISOString() },
    { authorization: `Bearer ${accessToken}` },
  )
  expect(response.status).toBe(201)
  return ((await response.json()) as { token: string }).token
}

async function fresh(c: ReturnType<typeof client>, email: string): Promise<Tokens> {
  const response = await c.login(email)
  expect(response.status).toBe(200)
  return (await response.json()) as Tokens
}

async function expectDenied(response: Response) {
  expect(response.status).toBe(403)
  const body = (await response.json()) as Record<string, unknown>
  expect(body.code).toBe('IP_NOT_ALLOWED')
  expect(body).not.toHaveProperty('access_token')
}

async function auditOf(c: ReturnType<typeof client>, org: SeededOrg, event: string): Promise<AuditRecord[]> {
  const response = await c.get(`/api/v1/audit-logs?event=${event}&page_size=100`, org.users.super_admin.auth)
  expect(response.status).toBe(200)
  return ((await response.json()) as { audit_logs: AuditRecord[] }).audit_logs
}

/** Every way in, from client `c`, for the admin of `org`: the statuses it gets. */
async function everyPath(c: ReturnType<typeof client>, org: SeededOrg, pat: string, tokens: Tokens) {
  return {
    access: (await c.me(tokens.access_token)).status,
    patHeader: (await c.meWithKey(pat)).status,
    patBearer: (await c.meWithBearerKey(pat)).status,
    refresh: (await c.refresh(tokens.refresh_token)).status,
    login: (await c.login(org.users.admin.user.email)).status,
  }
}
const ALL_PASS = { access: 200, patHeader: 200, patBearer: 200, refresh: 200, login: 200 }
const ALL_DENIED = { access: 403, patHeader: 403, patBearer: 403, refresh: 403, login: 403 }

// Three servers: IPv4 only, dual-stack, and one that trusts a proxy on 127.0.0.1.
const ipv4 = await serve('127.0.0.1')
const dual = await serve('::')
const proxied = await serve('127.0.0.1', { TRUSTED_PROXIES: '127.0.0.1' })
afterAll(async () => {
  await ipv4.close()
  await dual.close()
  await proxied.close()
})
const ipv4Pat = await createPat(client(ipv4), ipv4.app, ipv4.acme.users.admin.accessToken)
const proxiedPat = await createPat(client(proxied), proxied.app, proxied.acme.users.admin.accessToken)
// Skip the IPv6 loopback cases gracefully where the machine has none.
const hasV6 = await fetch(`http://[::1]:${dual.port}/health`).then(
  (r) => r.ok,
  () => false,
)

describe('IPv4 server, client 127.0.0.1', () => {
  const s = ipv4
  const c = client(s)
  const pat = ipv4Pat

  test.each([[['127.0.0.1']], [['127.0.0.0/8']], [['10.0.0.0/8', '127.0.0.1/32']], [['::ffff:127.0.0.1']], [['0.0.0.0/0']]])(
    'allowlist %p lets every path in',
    async (list) => {
      await setAllowlist(s.app, s.acme, list)
      try {
        expect(await everyPath(c, s.acme, pat, await fresh(c, s.acme.users.admin.user.email))).toEqual(ALL_PASS)
      } finally {
        await setAllowlist(s.app, s.acme, [])
      }
    },
  )

  test.each([[['10.0.0.0/8']], [['127.0.0.2']], [['127.0.1.0/24']], [['::1']], [['2001:db8::/32']]])(
    'allowlist %p refuses every path with 403 IP_NOT_ALLOWED',
    async (list) => {
      const tokens = await fresh(c, s.acme.users.admin.user.email)
      await setAllowlist(s.app, s.acme, list)
      try {
        expect(await everyPath(c, s.acme, pat, tokens)).toEqual(ALL_DENIED)
      } finally {
        await setAllowlist(s.app, s.acme, [])
      }
    },
  )

  test('a forced PATCH locks the organization out at once; the refused refresh token is not used up', async () => {
    const tokens = await fresh(c, s.acme.users.agent.user.email)
    const sessionsOf = async (userId: string) =>
      Number((await s.app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?', [userId]))!.n)
    const sessionsBefore = await sessionsOf(s.acme.users.agent.user.id)
    const patched = await fetch(`${c.base}/api/v1/organization/security`, {
      method: 'PATCH',
      headers: { ...s.acme.users.super_admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_ips: ['10.0.0.0/8'], force: true }),
    })
    expect(patched.status).toBe(200)
    try {
      await expectDenied(await c.me(tokens.access_token))
      await expectDenied(await c.me(s.acme.users.super_admin.accessToken))
      await expectDenied(await c.meWithKey(pat))
      await expectDenied(await c.meWithBearerKey(pat))
      await expectDenied(await c.refresh(tokens.refresh_token))
      await expectDenied(await c.login(s.acme.users.agent.user.email))
      await expectDenied(await c.post('/api/v1/auth/logout', {}, { authorization: `Bearer ${tokens.access_token}` }))
      // The denied login opened no session.
      expect(await sessionsOf(s.acme.users.agent.user.id)).toBe(sessionsBefore)
      // A blocked address cannot tell a right password from a wrong one: the same 403, the same body.
      const right = await c.login(s.acme.users.agent.user.email)
      const wrong = await c.login(s.acme.users.agent.user.email, 'wrong password')
      expect([right.status, wrong.status]).toEqual([403, 403])
      const withoutId = async (r: Response) => {
        const { request_id, ...rest } = (await r.json()) as Record<string, unknown>
        expect(request_id).toBeString()
        return rest
      }
      const [rightBody, wrongBody] = [await withoutId(right), await withoutId(wrong)]
      expect(wrongBody).toEqual(rightBody)
      expect(rightBody.code).toBe('IP_NOT_ALLOWED')
      const unknown = await c.login('nobody@acme.test', 'wrong password')
      expect(unknown.status).toBe(401)
      // The other organization is unaffected.
      expect((await c.me(s.globex.users.agent.accessToken)).status).toBe(200)
      expect((await c.login(s.globex.users.agent.user.email)).status).toBe(200)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
    // Once lifted, the same credentials work: the refused refresh consumed nothing and revoked nothing.
    expect((await c.me(tokens.access_token)).status).toBe(200)
    expect((await c.refresh(tokens.refresh_token)).status).toBe(200)
    expect((await c.meWithKey(pat)).status).toBe(200)
  })

  test('X-Forwarded-For from an untrusted peer is ignored: judged as 127.0.0.1', async () => {
    const spoofing = client(s, '127.0.0.1', '203.0.113.9')
    const tokens = await fresh(c, s.acme.users.admin.user.email)
    await setAllowlist(s.app, s.acme, ['203.0.113.0/24'])
    try {
      expect(await everyPath(spoofing, s.acme, pat, tokens)).toEqual(ALL_DENIED)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
    await setAllowlist(s.app, s.acme, ['127.0.0.1'])
    try {
      const other = client(s, '127.0.0.1', '198.51.100.1')
      expect(await everyPath(other, s.acme, pat, await fresh(c, s.acme.users.admin.user.email))).toEqual(ALL_PASS)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
  })

  test('denials are audited as ip.denied, at most once a minute per address', async () => {
    const org = await seedOrganization(s.app, 'denied')
    const tokens = await fresh(c, org.users.agent.user.email)
    const orgPat = await createPat(c, s.app, org.users.agent.accessToken)
    const deny = async () => {
      await expectDenied(await c.me(tokens.access_token))
      await expectDenied(await c.meWithKey(orgPat))
      await expectDenied(await c.refresh(tokens.refresh_token))
      await expectDenied(await c.login(org.users.viewer.user.email))
    }
    await setAllowlist(s.app, org, ['10.0.0.0/8'])
    await deny()
    await deny()
    s.app.clock.advance(59_000)
    await deny()
    await setAllowlist(s.app, org, [])
    let records = await auditOf(c, org, 'ip.denied')
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      outcome: 'failure',
      reason: 'ip_not_allowed',
      ip: '127.0.0.1',
      details: { ip: '127.0.0.1' },
      actor: { type: 'user', id: org.users.agent.user.id },
    })
    // A minute after the last record, the next denial is recorded again.
    await setAllowlist(s.app, org, ['10.0.0.0/8'])
    s.app.clock.advance(1_000)
    await deny()
    await setAllowlist(s.app, org, [])
    records = await auditOf(c, org, 'ip.denied')
    expect(records).toHaveLength(2)
    // A denied login is recorded as the user who tried (the password was right).
    await setAllowlist(s.app, org, ['10.0.0.0/8'])
    s.app.clock.advance(60_000)
    await expectDenied(await c.login(org.users.viewer.user.email))
    await setAllowlist(s.app, org, [])
    records = await auditOf(c, org, 'ip.denied')
    expect(records).toHaveLength(3)
    expect(records[0]!.actor).toEqual({ type: 'user', id: org.users.viewer.user.id })
  })
})

describe('dual-stack server (::)', () => {
  const s = dual
  const v4 = client(s, '127.0.0.1')
  const v6 = client(s, '[::1]')

  test('a client on 127.0.0.1 arrives as ::ffff:127.0.0.1 and is recorded as 127.0.0.1', async () => {
    const tokens = await fresh(v4, s.acme.users.agent.user.email)
    const listed = (await (await v4.get('/api/v1/auth/sessions', { authorization: `Bearer ${tokens.access_token}` })).json()) as {
      sessions: { id: string; ip: string }[]
    }
    expect(listed.sessions.find((x) => x.id === claims(tokens.access_token).sid)!.ip).toBe('127.0.0.1')
  })

  test.each([
    [['127.0.0.1'], 200],
    [['127.0.0.0/8'], 200],
    [['::ffff:127.0.0.1'], 200],
    [['::ffff:127.0.0.0/104'], 200],
    [['127.0.0.2'], 403],
    [['::ffff:127.0.0.2'], 403],
    [['::1'], 403],
  ] as [string[], number][])('IPv4-mapped peer ::ffff:127.0.0.1 with allowlist %p -> %d', async (list, status) => {
    const tokens = await fresh(v4, s.acme.users.admin.user.email)
    await setAllowlist(s.app, s.acme, list)
    try {
      expect((await v4.me(tokens.access_token)).status).toBe(status)
      expect((await v4.login(s.acme.users.admin.user.email)).status).toBe(status)
      expect((await v4.refresh(tokens.refresh_token)).status).toBe(status)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
  })

  test.skipIf(!hasV6).each([
    [['::1'], 200],
    [['::1/128'], 200],
    [['0:0:0:0:0:0:0:1'], 200],
    [['::/0'], 200],
    [['::2'], 403],
    [['127.0.0.1'], 403],
    [['fe80::/10'], 403],
  ] as [string[], number][])('IPv6 client on [::1] with allowlist %p -> %d', async (list, status) => {
    const tokens = await fresh(v6, s.acme.users.admin.user.email)
    await setAllowlist(s.app, s.acme, list)
    try {
      expect((await v6.me(tokens.access_token)).status).toBe(status)
      expect((await v6.login(s.acme.users.admin.user.email)).status).toBe(status)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
  })

  test.skipIf(!hasV6)('an IPv6 denial records the canonical address', async () => {
    const org = await seedOrganization(s.app, 'v6denied')
    await setAllowlist(s.app, org, ['10.0.0.0/8'])
    await expectDenied(await v6.me(org.users.admin.accessToken))
    await setAllowlist(s.app, org, [])
    const [record] = await auditOf(v6, org, 'ip.denied')
    expect(record).toMatchObject({ ip: '::1', details: { ip: '::1' } })
  })
})

describe('behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', () => {
  const s = proxied
  const direct = client(s)
  const viaProxy = client(s, '127.0.0.1', '203.0.113.9')
  const pat = proxiedPat

  test('X-Forwarded-For 203.0.113.9 is judged as 203.0.113.9', async () => {
    const tokens = await fresh(direct, s.acme.users.admin.user.email)
    const second = await fresh(direct, s.acme.users.admin.user.email)
    await setAllowlist(s.app, s.acme, ['203.0.113.0/24'])
    try {
      expect(await everyPath(viaProxy, s.acme, pat, tokens)).toEqual(ALL_PASS)
      // The same peer without the header is 127.0.0.1, outside the list.
      expect(await everyPath(direct, s.acme, pat, second)).toEqual(ALL_DENIED)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
    const more = await fresh(direct, s.acme.users.admin.user.email)
    await setAllowlist(s.app, s.acme, ['198.51.100.0/24'])
    try {
      expect(await everyPath(viaProxy, s.acme, pat, more)).toEqual(ALL_DENIED)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
  })

  test.each([
    ['198.51.100.7, 203.0.113.9', 200],
    ['203.0.113.9, 198.51.100.7', 403],
    ['203.0.113.9, 127.0.0.1', 200],
    ['::ffff:203.0.113.9', 200],
  ] as [string, number][])('X-Forwarded-For %p: the rightmost untrusted hop is judged -> %d', async (xff, status) => {
    await setAllowlist(s.app, s.acme, ['203.0.113.0/24'])
    try {
      expect((await client(s, '127.0.0.1', xff).me(s.acme.users.agent.accessToken)).status).toBe(status)
    } finally {
      await setAllowlist(s.app, s.acme, [])
    }
  })

  test('MFA verify is behind the allowlist too; a refused verify spends neither the code nor the challenge', async () => {
    const org = await seedOrganization(s.app, 'mfa')
    const started = await direct.post('/api/v1/auth/mfa/totp', {}, org.users.agent.auth)
    expect(started.status).toBe(200)
    const { secret } = (await started.json()) as { secret: string }
    expect(
      (await direct.post('/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, s.app.clock.now()) }, org.users.agent.auth)).status,
    ).toBe(200)
    s.app.clock.advance(30_000)
    await setAllowlist(s.app, org, ['203.0.113.0/24'])
    try {
      const challenge = await viaProxy.login(org.users.agent.user.email)
      expect(challenge.status).toBe(200)
      const { mfa_token } = (await challenge.json()) as { mfa_token: string }
      const body = { mfa_token, code: totpAt(secret, s.app.clock.now()), method: 'totp' }
      await expectDenied(await client(s, '127.0.0.1', '198.51.100.1').post('/api/v1/auth/mfa/verify', body))
      await expectDenied(await direct.post('/api/v1/auth/mfa/verify', body))
      const verified = await viaProxy.post('/api/v1/auth/mfa/verify', body)
      expect(verified.status).toBe(200)
      const tokens = (await verified.json()) as Tokens
      const listed = (await (await viaProxy.get('/api/v1/auth/sessions', { authorization: `Bearer ${tokens.access_token}` })).json()) as {
        sessions: { id: string; ip: string; auth_methods: string[] }[]
      }
      expect(listed.sessions.find((x) => x.id === claims(tokens.access_token).sid)).toMatchObject({
        ip: '203.0.113.9',
        auth_methods: ['pwd', 'otp', 'mfa'],
      })
    } finally {
      await setAllowlist(s.app, org, [])
    }
  })

  test('the forwarded address is what the session, the audit log and the lock-out guard see', async () => {
    const org = await seedOrganization(s.app, 'proxied')
    const tokens = await fresh(viaProxy, org.users.admin.user.email)
    const listed = (await (await viaProxy.get('/api/v1/auth/sessions', { authorization: `Bearer ${tokens.access_token}` })).json()) as {
      sessions: { id: string; ip: string }[]
    }
    expect(listed.sessions.find((x) => x.id === claims(tokens.access_token).sid)!.ip).toBe('203.0.113.9')
    const patchFrom = (xff: string, list: string[]) =>
      fetch(`${direct.base}/api/v1/organization/security`, {
        method: 'PATCH',
        headers: { ...org.users.super_admin.auth, 'content-type': 'application/json', 'x-forwarded-for': xff },
        body: JSON.stringify({ allowed_ips: list }),
      })
    expect((await patchFrom('198.51.100.1', ['203.0.113.0/24'])).status).toBe(409)
    expect((await patchFrom('203.0.113.9', ['203.0.113.0/24'])).status).toBe(200)
    // Now 198.51.100.1 is refused, and the denial names it.
    await expectDenied(await client(s, '127.0.0.1', '198.51.100.1').me(tokens.access_token))
    const records = await auditOf(viaProxy, org, 'ip.denied')
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ ip: '198.51.100.1', details: { ip: '198.51.100.1' } })
    // Throttled per address: another address in the same minute is recorded too.
    await expectDenied(await client(s, '127.0.0.1', '198.51.100.2').me(tokens.access_token))
    await expectDenied(await client(s, '127.0.0.1', '198.51.100.1').me(tokens.access_token))
    expect((await auditOf(viaProxy, org, 'ip.denied')).map((r) => r.ip)).toEqual(['198.51.100.2', '198.51.100.1'])
    await setAllowlist(s.app, org, [])
  })
})
