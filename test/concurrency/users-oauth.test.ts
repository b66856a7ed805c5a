// Account and OAuth invariants under concurrent writers on two instances (users, organizations,
// api-keys, oauth-clients, oauth): unique e-mails, the last Super Admin, changes never lost, per-owner
// caps, things done once (a revocation, a deletion, a code, a refresh token), consents that add up, and
// token families that end with what they came from. Each fails on PostgreSQL without its mechanism.
import { describe, expect, test } from 'bun:test'
import { prefixedId } from '../../src/lib/ids.ts'
import { openBrowserSession } from '../../src/modules/auth/index.ts'
import { cookieHash, cookieNames, randomCookieValue } from '../../src/modules/oauth/authorize/cookies.ts'
import { insertCode, saveGrant } from '../../src/modules/oauth/store.ts'
import { findOrganization } from '../../src/modules/organizations/index.ts'
import type { UserRow } from '../../src/modules/users/index.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'
import { authorizationUrl, OAuthBrowser, pageOf, registerClient } from '../helpers/oauth-browser.ts'
import { PASSWORD, type SeededOrg, seedOrganization } from '../helpers/seed.ts'

const SLOW_MS = 60_000
const REDIRECT = 'https://app.example.com/cb'
const cluster = await makeCluster()
const { instances, send, many } = cluster
const first = instances[0]!
const db = first.context.db
const statuses = (responses: Response[]) => responses.map((r) => r.status)
const count = (list: number[], status: number) => list.filter((s) => s === status).length
const expectOnly = (list: number[], allowed: number[]) => expect(list.filter((s) => !allowed.includes(s))).toEqual([])
const n = async (sql: string, params: string[]) => Number((await db.raw.get<{ n: number }>(sql, params))!.n)

let orgs = 0
const freshOrg = () => seedOrganization(first, `uo${++orgs}`)

let turn = 0
/** A form POST to the authorization server, on the next instance in turn. */
function form(path: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(params).toString()
  const headersOut = { 'content-type': 'application/x-www-form-urlencoded', ...headers }
  return instances[turn++ % instances.length]!.request(path, { method: 'POST', headers: headersOut, body })
}
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`,
})

/** A client of the organization allowed codes and refresh tokens. */
async function oauthClient(orgId: string) {
  const scopes = ['openid', 'profile', 'email', 'offline_access', 'tickets:read', 'tickets:write', 'users:read']
  const { clientId, secret } = await registerClient(first, orgId, { scopes, grant_types: ['authorization_code', 'refresh_token'] })
  const token = (params: Record<string, string>) => form('/oauth2/token', params, basic(clientId, secret!))
  const exchange = (code: string) => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })
  return { clientId, token, exchange }
}

/** As the browser side issues them: a browser session (its cookie), the user's grant to the client, and `count` codes. */
async function codes(user: UserRow, clientId: string, scope: string, howMany: number) {
  const org = (await findOrganization(db, user.organization_id))!
  const cookie = randomCookieValue()
  const now = first.clock.now()
  const list = Array.from({ length: howMany }, () => randomCookieValue())
  const sessionId = await db.write('test.codes', async (tx) => {
    const request = { requestId: 'test', ip: '127.0.0.1', userAgent: 'test' }
    const kind = { authMethods: ['pwd'], mfaEnrollmentOnly: false }
    const opened = await openBrowserSession(tx, { user, org, kind, cookieHash: cookieHash(cookie), maxAgeMs: 86_400_000, request, now })
    if (!opened.ok) throw opened.error
    await saveGrant(tx, { id: prefixedId('ogr'), organizationId: org.id, userId: user.id, clientId, scope, now })
    for (const code of list) {
      const row = { code_hash: cookieHash(code), organization_id: org.id, client_id: clientId, user_id: user.id, redirect_uri: REDIRECT }
      const signIn = { browser_session_id: opened.sessionId, auth_time: now, auth_methods: '["pwd"]', created_at: now }
      await insertCode(tx, {
        ...row,
        ...signIn,
        scope,
        code_challenge: null,
        nonce: null,
        expires_at: now + 60_000,
        consumed_at: null,
        session_id: null,
      })
    }
    return opened.sessionId
  })
  return { cookie, sessionId, codes: list }
}
const liveFamilies = (where: string, params: string[]) =>
  n(`SELECT count(*) AS n FROM sessions WHERE kind = 'oauth' AND revoked_at IS NULL AND ${where}`, params)

describe(`users and organizations at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    `${WRITERS} users created at once with one e-mail (any case), three e-mails: one 201 each, the rest 409`,
    async () => {
      const body = (twin: string, i: number) => ({
        email: i % 2 ? twin.toUpperCase() : twin,
        name: 'Twin',
        password: PASSWORD,
        role: 'agent',
      })
      const twins = ['twin1@example.test', 'twin2@example.test', 'twin3@example.test']
      const answered = await Promise.all(
        twins.map(async (twin) => statuses(await many(WRITERS, (i) => send('POST', '/api/v1/users', body(twin, i))))),
      )
      for (const list of answered) expect([count(list, 201), count(list, 409)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )

  test(
    `two Super Admins demoting each other at once (${WRITERS / 2} organizations): one always remains`,
    async () => {
      const seeded = await Promise.all(Array.from({ length: WRITERS / 2 }, freshOrg))
      const promote = (o: SeededOrg) =>
        send('PATCH', `/api/v1/users/${o.users.admin.user.id}`, { role: 'super_admin' }, o.users.super_admin.auth)
      expect(statuses(await Promise.all(seeded.map(promote)))).toEqual(seeded.map(() => 200))
      const demote = (o: SeededOrg, by: 'admin' | 'super_admin', whom: 'admin' | 'super_admin') =>
        send('PATCH', `/api/v1/users/${o.users[whom].user.id}`, { role: 'admin' }, o.users[by].auth)
      const answered = await Promise.all(seeded.flatMap((o) => [demote(o, 'super_admin', 'admin'), demote(o, 'admin', 'super_admin')]))
      expectOnly(statuses(answered), [200, 403, 409])
      for (const o of seeded)
        expect(
          await n("SELECT count(*) AS n FROM users WHERE organization_id = ? AND role = 'super_admin' AND status = 'active'", [o.org.id]),
        ).toBe(1)
    },
    SLOW_MS,
  )

  test(
    `a user disabled while renamed ${WRITERS - 1} times at once: it stays disabled`,
    async () => {
      const { users } = await freshOrg()
      const path = `/api/v1/users/${users.agent.user.id}`
      for (let round = 0; round < 3; round++) {
        expect((await send('PATCH', path, { status: 'active' }, users.admin.auth)).status).toBe(200)
        const change = (i: number) => (i === WRITERS / 2 ? { status: 'disabled' } : { name: `Agent ${round}.${i}` })
        const answered = await many(WRITERS, (i) => send('PATCH', path, change(i), users.admin.auth))
        expect(statuses(answered)).toEqual(answered.map(() => 200))
        expect((await json<{ status: string }>(await send('GET', path, undefined, users.admin.auth))).status).toBe('disabled')
      }
    },
    SLOW_MS,
  )

  test(
    `security settings changed ${WRITERS} times at once, two settings: neither change is lost`,
    async () => {
      const { users } = await freshOrg()
      const patch = (body: Record<string, unknown>) => send('PATCH', '/api/v1/organization/security', body, users.super_admin.auth)
      for (let round = 0; round < 3; round++) {
        expect((await patch({ max_concurrent_sessions: null, session_limit_policy: 'evict_oldest' })).status).toBe(200)
        const answered = await many(WRITERS, (i) =>
          patch(i % 2 ? { max_concurrent_sessions: 100 + i } : { session_limit_policy: 'deny_new' }),
        )
        expect(statuses(answered)).toEqual(answered.map(() => 200))
        const security = await send('GET', '/api/v1/organization/security', undefined, users.super_admin.auth)
        const now = await json<{ max_concurrent_sessions: number | null; session_limit_policy: string }>(security)
        expect([now.max_concurrent_sessions !== null, now.session_limit_policy]).toEqual([true, 'deny_new'])
      }
    },
    SLOW_MS,
  )
})

describe(`API keys and OAuth clients at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    `${WRITERS} keys created at once, ${WRITERS / 2} places left: ${WRITERS / 2} made, the rest 409, 100 live`,
    async () => {
      const { users } = await freshOrg()
      const expires_at = new Date(first.clock.now() + 86_400_000).toISOString()
      const body = { name: 'key', expires_at }
      for (let i = 0; i < 100 - WRITERS / 2; i++) expect((await send('POST', '/api/v1/api-keys', body, users.admin.auth)).status).toBe(201)
      const answered = statuses(await many(WRITERS, () => send('POST', '/api/v1/api-keys', body, users.admin.auth)))
      expect([count(answered, 201), count(answered, 409)]).toEqual([WRITERS / 2, WRITERS / 2])
      expect(await n('SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL', [users.admin.user.id])).toBe(100)
    },
    SLOW_MS,
  )

  test(
    `one key revoked by ${WRITERS} requests at once: one 204, the rest 404`,
    async () => {
      const { users } = await freshOrg()
      const expires_at = new Date(first.clock.now() + 86_400_000).toISOString()
      const { id } = await json<{ id: string }>(await send('POST', '/api/v1/api-keys', { name: 'key', expires_at }, users.admin.auth))
      const answered = statuses(await many(WRITERS, () => send('DELETE', `/api/v1/api-keys/${id}`, undefined, users.admin.auth)))
      expect([count(answered, 204), count(answered, 404)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )

  test(
    `${WRITERS} clients registered at once, ${WRITERS / 2} places left: ${WRITERS / 2} made, the rest 409`,
    async () => {
      const { org, users } = await freshOrg()
      for (let i = 0; i < 100 - WRITERS / 2; i++) await registerClient(first, org.id, { name: `client ${i}` })
      const body = { name: 'Dashboard', redirect_uris: [REDIRECT] }
      const answered = statuses(await many(WRITERS, () => send('POST', '/api/v1/oauth-clients', body, users.admin.auth)))
      expect([count(answered, 201), count(answered, 409)]).toEqual([WRITERS / 2, WRITERS / 2])
      expect(await n('SELECT count(*) AS n FROM oauth_clients WHERE organization_id = ?', [org.id])).toBe(100)
    },
    SLOW_MS,
  )

  test(
    `a client changed ${WRITERS} times at once: its settings as a whole always pass the checks`,
    async () => {
      const { users } = await freshOrg()
      const body = { name: 'Machine', redirect_uris: [REDIRECT], grant_types: ['client_credentials'], scopes: ['tickets:read'] }
      const { id } = await json<{ id: string }>(await send('POST', '/api/v1/oauth-clients', body, users.admin.auth))
      const patch = (changes: Record<string, unknown>) => send('PATCH', `/api/v1/oauth-clients/${id}`, changes, users.admin.auth)
      for (let round = 0; round < 3; round++) {
        expect((await patch({ grant_types: ['client_credentials'], redirect_uris: [REDIRECT] })).status).toBe(200)
        const answered = await many(WRITERS, (i) => patch(i % 2 ? { grant_types: ['authorization_code'] } : { redirect_uris: [] }))
        expectOnly(statuses(answered), [200, 400])
        const client = await json<{ grant_types: string[]; redirect_uris: string[] }>(
          await send('GET', `/api/v1/oauth-clients/${id}`, undefined, users.admin.auth),
        )
        if (client.grant_types.includes('authorization_code')) expect(client.redirect_uris).toEqual([REDIRECT])
      }
    },
    SLOW_MS,
  )

  test(
    `a secret rotated ${WRITERS} times at once: each rotation replaced the secret of the one before`,
    async () => {
      const { clientId } = await registerClient(first, cluster.org.org.id)
      const answered = await many(WRITERS, () => send('POST', `/api/v1/oauth-clients/${clientId}/rotate-secret`))
      expect(statuses(answered)).toEqual(answered.map(() => 200))
      const records = await db.raw.all<{ details: string }>(
        "SELECT details FROM audit_logs WHERE event = 'oauth_client.secret_rotated' AND target_id = ?",
        [clientId],
      )
      const previous = records.map((r) => (JSON.parse(r.details) as { previous_hint: string }).previous_hint)
      expect(new Set(previous).size).toBe(WRITERS)
    },
    SLOW_MS,
  )

  test(
    `one client deleted by ${WRITERS} requests at once: one 204, the rest 404`,
    async () => {
      const { clientId } = await registerClient(first, cluster.org.org.id)
      const answered = statuses(await many(WRITERS, () => send('DELETE', `/api/v1/oauth-clients/${clientId}`)))
      expect([count(answered, 204), count(answered, 404)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )
})

describe(`OAuth codes, tokens and grants at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    `one code exchanged ${WRITERS} times at once: one 200, the rest invalid_grant`,
    async () => {
      const { users } = await freshOrg()
      const client = await oauthClient(users.agent.user.organization_id)
      const {
        codes: [code],
      } = await codes(users.agent.user, client.clientId, 'openid', 1)
      const answered = statuses(await many(WRITERS, () => client.exchange(code!)))
      expect([count(answered, 200), count(answered, 400)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )

  test(
    `a client's refresh token sent ${WRITERS} times at once: one 200, the rest invalid_grant`,
    async () => {
      const { users } = await freshOrg()
      const client = await oauthClient(users.agent.user.organization_id)
      const {
        codes: [code],
      } = await codes(users.agent.user, client.clientId, 'openid offline_access', 1)
      const { refresh_token } = await json<{ refresh_token: string }>(await client.exchange(code!))
      const answered = statuses(await many(WRITERS, () => client.token({ grant_type: 'refresh_token', refresh_token })))
      expect([count(answered, 200), count(answered, 400)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )

  const races = {
    'the grant is revoked': async (o: SeededOrg, _minted: Awaited<ReturnType<typeof codes>>, clientId: string) => {
      const grant = await db.raw.get<{ id: string }>('SELECT id FROM oauth_grants WHERE user_id = ? AND client_id = ?', [
        o.users.agent.user.id,
        clientId,
      ])
      return send('DELETE', `/api/v1/me/oauth-grants/${grant!.id}`, undefined, o.users.agent.auth)
    },
    'the browser signs out': async (_o: SeededOrg, minted: Awaited<ReturnType<typeof codes>>) =>
      instances[1 % instances.length]!.request('/oauth2/logout', {
        headers: { cookie: `${cookieNames(first.config).session}=${minted.cookie}` },
      }),
    'the password changes': async (o: SeededOrg) =>
      send('POST', '/api/v1/auth/password', { current_password: PASSWORD, new_password: 'a new horse battery staple' }, o.users.agent.auth),
  }
  for (const [what, race] of Object.entries(races))
    test(
      `${WRITERS - 1} codes exchanged while ${what}: no token family outlives it`,
      async () => {
        const o = await freshOrg()
        const client = await oauthClient(o.org.id)
        const minted = await codes(o.users.agent.user, client.clientId, 'openid', WRITERS - 1)
        const exchanges = minted.codes.map((code) => client.exchange(code))
        const ended = await race(o, minted, client.clientId)
        expect([200, 204]).toContain(ended.status)
        expectOnly(statuses(await Promise.all(exchanges)), [200, 400])
        expect(await liveFamilies('user_id = ? AND client_id = ?', [o.users.agent.user.id, client.clientId])).toBe(0)
      },
      SLOW_MS,
    )

  test(
    `${WRITERS} consents to one client at once, each to other scopes: the grant holds them all; revoked once`,
    async () => {
      const { org, users } = await freshOrg()
      const client = await oauthClient(org.id)
      const origin = new URL(first.config.authUrl).origin
      let next = 0
      const fetcher = async (url: string, init: RequestInit) => {
        const response = await instances[next++ % instances.length]!.app.handle(new Request(url, init))
        await new Promise((resolve) => setImmediate(resolve))
        return response
      }
      const browser = new OAuthBrowser(fetcher, (u) => u.origin === origin, first.config.authUrl)
      const extra = ['profile', 'email', 'offline_access', 'tickets:read', 'tickets:write', 'users:read']
      const ask = (scope: string) =>
        authorizationUrl(first, { client_id: client.clientId, redirect_uri: REDIRECT, response_type: 'code', scope, state: 's' })
      const signInPage = pageOf(await browser.request(ask('openid')))
      pageOf(await browser.submit(signInPage, { email: users.admin.user.email, password: PASSWORD }))
      const pages = await Promise.all(
        Array.from({ length: WRITERS }, async (_, i) => pageOf(await browser.request(ask(`openid ${extra[i % extra.length]}`)))),
      )
      const allowed = await Promise.all(pages.map((page) => browser.submit(page, {}, ['decision', 'allow'])))
      expect(allowed.map((step) => step.kind)).toEqual(pages.map(() => 'redirect'))
      const grant = await db.raw.get<{ id: string; scope: string }>(
        'SELECT id, scope FROM oauth_grants WHERE user_id = ? AND client_id = ?',
        [users.admin.user.id, client.clientId],
      )
      expect(grant!.scope.split(' ').sort()).toEqual(['openid', ...extra].sort())
      const revoked = statuses(
        await many(WRITERS, () => send('DELETE', `/api/v1/me/oauth-grants/${grant!.id}`, undefined, users.admin.auth)),
      )
      expect([count(revoked, 204), count(revoked, 404)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )
})
