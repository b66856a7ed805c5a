// Using a personal access token: both headers, every malformed, unknown or revoked form refused (bad checksums without a database read), narrowed permissions, the owner's current role and status, and the sign-in-only routes it cannot reach.
import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { newPersonalAccessToken } from '../../../src/lib/personal-access-token.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const { users } = acme

type Headers = Record<string, string>
interface CreatedKey {
  id: string
  token: string
  permissions: string[] | null
}
interface ErrorBody {
  code: string
  message: string
}

const DAY = 86_400_000
const send = (method: string, path: string, headers: Headers, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const createKey = async (auth: Headers, body: Record<string, unknown> = {}): Promise<CreatedKey> => {
  const response = await send('POST', '/api/v1/api-keys', auth, {
    name: 'Script',
    expires_at: new Date(app.clock.now() + 30 * DAY).toISOString(),
    ...body,
  })
  expect(response.status).toBe(201)
  return json<CreatedKey>(response)
}
const xApiKey = (token: string) => ({ 'x-api-key': token })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const HEADERS = [
  ['X-API-Key', xApiKey],
  ['Authorization: Bearer', bearer],
] as const
const expectError = async (response: Response, status: number, code: string) => {
  const body = await json<ErrorBody>(response)
  expect({ status: response.status, code: body.code }).toEqual({ status, code })
  return body
}
const keyCount = async () => (await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM api_keys'))!.n

const adminKey = await createKey(users.admin.auth, { name: 'Admin, all permissions' })

describe('presenting the token', () => {
  test.each(HEADERS)("as %s: the owner, with the owner's permissions", async (_, header) => {
    const me = await send('GET', '/api/v1/me', header(adminKey.token))
    expect(me.status).toBe(200)
    expect(await json(me)).toMatchObject({ id: users.admin.user.id, organization_id: acme.org.id, role: 'admin' })
    expect((await send('GET', '/api/v1/tickets', header(adminKey.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/users', header(adminKey.token))).status).toBe(200)
    expect((await send('POST', '/api/v1/tickets', header(adminKey.token), { subject: 'Filed by a script' })).status).toBe(201)
  })

  test('the scheme is case-insensitive and surrounding spaces are ignored', async () => {
    expect((await send('GET', '/api/v1/tickets', { authorization: `bearer ${adminKey.token}` })).status).toBe(200)
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': `  ${adminKey.token} ` })).status).toBe(200)
  })

  test('a token only reaches its own organization', async () => {
    const acmeTicket = await json<{ id: string }>(await send('POST', '/api/v1/tickets', users.admin.auth, { subject: 'Acme only' }))
    const globexKey = await createKey(globex.users.admin.auth)
    const response = await send('GET', `/api/v1/tickets/${acmeTicket.id}`, xApiKey(globexKey.token))
    expect(response.status).toBe(404)
    const listed = await json<{ tickets: { id: string }[] }>(await send('GET', '/api/v1/tickets?page_size=100', xApiKey(globexKey.token)))
    expect(listed.tickets.map((t) => t.id)).not.toContain(acmeTicket.id)
    expect((await send('GET', `/api/v1/tickets/${acmeTicket.id}`, xApiKey(adminKey.token))).status).toBe(200)
  })

  test.each([
    ['the token in both headers', { ...xApiKey(adminKey.token), ...bearer(adminKey.token) }],
    ['the token in X-API-Key and an access token in Authorization', { ...xApiKey(adminKey.token), ...users.admin.auth }],
    ['an access token in X-API-Key', xApiKey(users.admin.accessToken)],
    ['garbage in X-API-Key', xApiKey('hello')],
    ['an empty X-API-Key', xApiKey('')],
    ['X-API-Key with a scheme', xApiKey(`Bearer ${adminKey.token}`)],
    ['Authorization without the Bearer scheme', { authorization: adminKey.token }],
    ['Authorization with another scheme', { authorization: `Token ${adminKey.token}` }],
    ['Bearer with two values', { authorization: `Bearer ${adminKey.token} ${adminKey.token}` }],
    ['the test prefix', xApiKey(adminKey.token.replace('pat_live_', 'pat_test_'))],
  ])('%s: 401 TOKEN_INVALID', async (_, headers) => {
    const response = await send('GET', '/api/v1/tickets', headers as Headers)
    await expectError(response, 401, 'TOKEN_INVALID')
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  test('every refusal carries a well-formed WWW-Authenticate challenge (RFC 6750 §3)', async () => {
    // error_description is %x20-21 / %x23-5B / %x5D-7E: no double quote, backslash or non-ASCII.
    const CHALLENGE = /^Bearer realm="switchboard", error="invalid_token", error_description="[\x20\x21\x23-\x5B\x5D-\x7E]*"$/
    const refusals: Headers[] = [
      { authorization: adminKey.token },
      { authorization: `Token ${adminKey.token}` },
      { ...xApiKey(adminKey.token), ...bearer(adminKey.token) },
      xApiKey(newPersonalAccessToken()),
      xApiKey(adminKey.token.slice(0, -1)),
    ]
    for (const headers of refusals) {
      const response = await send('GET', '/api/v1/tickets', headers)
      expect(response.status).toBe(401)
      expect({ headers, challenge: response.headers.get('www-authenticate') }).toEqual({
        headers,
        challenge: expect.stringMatching(CHALLENGE),
      })
    }
  })

  test('in the URL (?access_token=): refused, even beside a valid header', async () => {
    for (const headers of [{}, xApiKey(adminKey.token), bearer(adminKey.token)]) {
      await expectError(await send('GET', `/api/v1/tickets?access_token=${adminKey.token}`, headers), 401, 'TOKEN_INVALID')
      await expectError(await send('GET', `/api/v1/tickets?page_size=5&access_token=`, headers), 401, 'TOKEN_INVALID')
    }
  })

  test('no credential at all: 401 UNAUTHENTICATED (a token in another query parameter is not a credential)', async () => {
    await expectError(await send('GET', `/api/v1/tickets?api_key=${adminKey.token}`, {}), 401, 'UNAUTHENTICATED')
  })
})

describe('malformed and unknown tokens', () => {
  // Every read outside a transaction goes through the raw helper or Kysely on the read connection:
  // pass-through spies record the statements that read api_keys.
  const lookups: string[] = []
  const spies: { mockRestore(): void }[] = []
  beforeAll(() => {
    const { raw, kysely } = app.context.db
    const record = (sql: string) => {
      if (/\bFROM api_keys\b/.test(sql)) lookups.push(sql)
    }
    for (const method of ['get', 'all'] as const) {
      const original = raw[method].bind(raw)
      const spy = (sql: string, params?: never[]) => {
        record(sql)
        return original(sql, params)
      }
      spies.push(spyOn(raw, method).mockImplementation(spy as never))
    }
    const executeQuery = kysely.executeQuery.bind(kysely)
    const spy = (query: { sql: string }) => {
      record(query.sql)
      return executeQuery(query as never)
    }
    spies.push(spyOn(kysely, 'executeQuery').mockImplementation(spy as never))
  })
  afterAll(() => {
    for (const spy of spies) spy.mockRestore()
  })
  beforeEach(() => void lookups.splice(0))

  const token = adminKey.token
  const letter = [...token].findIndex((c, i) => i >= 9 && /[a-z]/i.test(c))
  const pair = [...token].findIndex((c, i) => i >= 9 && token[i + 1] !== undefined && token[i + 1] !== c)
  const flipCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())
  const mutations = [
    ['a body character changed', `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`],
    ['a checksum character changed', `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`],
    ['the case of a letter changed', `${token.slice(0, letter)}${flipCase(token[letter]!)}${token.slice(letter + 1)}`],
    ['truncated', token.slice(0, -1)],
    ['one character more', `${token}x`],
    ['only the displayed prefix', token.slice(0, 17)],
    ['two characters swapped', `${token.slice(0, pair)}${token[pair + 1]}${token[pair]}${token.slice(pair + 2)}`],
  ] as const

  test.each(mutations)('%s: 401 TOKEN_INVALID through both headers, and api_keys is never read', async (_, mutated) => {
    expect(mutated).not.toBe(token)
    for (const [, header] of HEADERS) await expectError(await send('GET', '/api/v1/tickets', header(mutated)), 401, 'TOKEN_INVALID')
    expect(lookups).toEqual([])
  })

  test('an unknown but well-formed token: 401 TOKEN_INVALID, after one lookup (so the spy above does see lookups)', async () => {
    for (const [, header] of HEADERS)
      await expectError(await send('GET', '/api/v1/tickets', header(newPersonalAccessToken())), 401, 'TOKEN_INVALID')
    expect(lookups.length).toBe(2)
  })

  test('the real token, for contrast: read from api_keys, 200', async () => {
    // A commit first: on SQLite a key read since the last commit is answered from memory (db/marked-cache.ts).
    await app.context.db.raw.run('UPDATE api_keys SET name = name WHERE id = ?', [adminKey.id])
    expect((await send('GET', '/api/v1/tickets', xApiKey(token))).status).toBe(200)
    expect(lookups.length).toBeGreaterThan(0)
  })
})

describe('revocation', () => {
  test.each(HEADERS)('a revoked token gets 401 TOKEN_INVALID at once (%s)', async (_, header) => {
    const key = await createKey(users.agent.auth)
    expect((await send('GET', '/api/v1/tickets', header(key.token))).status).toBe(200)
    expect((await send('DELETE', `/api/v1/api-keys/${key.id}`, users.agent.auth)).status).toBe(204)
    const response = await send('GET', '/api/v1/tickets', header(key.token))
    await expectError(response, 401, 'TOKEN_INVALID')
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  test("revoking one key leaves the owner's other keys and sessions working", async () => {
    const [a, b] = [await createKey(users.agent.auth), await createKey(users.agent.auth)]
    expect((await send('DELETE', `/api/v1/api-keys/${a.id}`, users.agent.auth)).status).toBe(204)
    expect((await send('GET', '/api/v1/tickets', xApiKey(b.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/tickets', users.agent.auth)).status).toBe(200)
  })
})

describe('narrowed permissions', () => {
  test('a key with [ticket:read] reads tickets but cannot create one nor read users', async () => {
    const key = await createKey(users.admin.auth, { permissions: ['ticket:read'] })
    for (const [, header] of HEADERS) {
      expect((await send('GET', '/api/v1/tickets', header(key.token))).status).toBe(200)
      const created = await send('POST', '/api/v1/tickets', header(key.token), { subject: 'Not allowed' })
      expect((await expectError(created, 403, 'INSUFFICIENT_PERMISSIONS')).message).toContain('ticket:create')
      expect((await expectError(await send('GET', '/api/v1/users', header(key.token)), 403, 'INSUFFICIENT_PERMISSIONS')).message).toContain(
        'user:read',
      )
      // Nor its own key list (api_key:read).
      await expectError(await send('GET', '/api/v1/api-keys', header(key.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    }
  })

  test('a key with [ticket:*] can create tickets, and do nothing outside tickets', async () => {
    const key = await createKey(users.admin.auth, { permissions: ['ticket:*'] })
    expect((await send('POST', '/api/v1/tickets', xApiKey(key.token), { subject: 'Filed by a narrowed key' })).status).toBe(201)
    expect((await send('GET', '/api/v1/tickets', xApiKey(key.token))).status).toBe(200)
    await expectError(await send('GET', '/api/v1/users', xApiKey(key.token)), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test('a key with [user:read, ticket:create] has exactly those two', async () => {
    const key = await createKey(users.admin.auth, { permissions: ['user:read', 'ticket:create'] })
    expect((await send('GET', '/api/v1/users', xApiKey(key.token))).status).toBe(200)
    expect((await send('POST', '/api/v1/tickets', xApiKey(key.token), { subject: 'Write only' })).status).toBe(201)
    await expectError(await send('GET', '/api/v1/tickets', xApiKey(key.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await send('POST', '/api/v1/users', xApiKey(key.token), {
        email: 'x@acme.test',
        name: 'X',
        password: 'password-123',
        role: 'viewer',
      }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
  })

  test('a narrowed key cannot hand out a role its own permissions lack, even when its owner could', async () => {
    const key = await createKey(users.super_admin.auth, { permissions: ['user:*'] })
    // user:create is there, but making a viewer means holding every viewer permission.
    const response = await send('POST', '/api/v1/users', xApiKey(key.token), {
      email: 'made-by-key@acme.test',
      name: 'Made by key',
      password: 'password-123',
      role: 'viewer',
    })
    await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test("an agent's key sees only what the agent sees: a ticket assigned to someone else stays hidden", async () => {
    const ticket = await json<{ id: string }>(
      await send('POST', '/api/v1/tickets', users.admin.auth, { subject: "Supervisor's", assignee_id: users.supervisor.user.id }),
    )
    const key = await createKey(users.agent.auth)
    expect((await send('GET', `/api/v1/tickets/${ticket.id}`, users.supervisor.auth)).status).toBe(200)
    expect((await send('GET', `/api/v1/tickets/${ticket.id}`, xApiKey(key.token))).status).toBe(404)
  })
})

describe('the owner as it is now', () => {
  test('demoted: every key can do only what the new role can; promoted back: they work again', async () => {
    const { users } = await seedOrganization(app, 'demotion')
    const everything = await createKey(users.admin.auth, { name: 'Default' })
    const userKeys = await createKey(users.admin.auth, { name: 'Users', permissions: ['user:read', 'user:create'] })
    let n = 0
    const newUser = () => ({ email: `made${++n}@demotion.test`, name: `Made ${n}`, password: 'password-123', role: 'viewer' })
    const setRole = async (role: string) =>
      expect((await send('PATCH', `/api/v1/users/${users.admin.user.id}`, users.super_admin.auth, { role })).status).toBe(200)

    // user:create passes the permission check, but creating a user also means holding every
    // permission of its role (a viewer's ticket:read…), which [user:read, user:create] lacks: the 403
    // tells which check refused.
    const userCreate = async (key: CreatedKey) => {
      const response = await send('POST', '/api/v1/users', xApiKey(key.token), newUser())
      if (response.status === 201) return 'created'
      const { message } = await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
      return message.includes('requires the user:create permission') ? 'no user:create' : 'role not covered'
    }

    // As admin.
    expect(await userCreate(everything)).toBe('created')
    expect(await userCreate(userKeys)).toBe('role not covered')
    expect((await send('GET', '/api/v1/users', xApiKey(userKeys.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/audit-logs', xApiKey(everything.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/api-keys', xApiKey(everything.token))).status).toBe(200)

    await setRole('viewer')
    // The default key: a viewer's permissions.
    expect((await send('GET', '/api/v1/tickets', xApiKey(everything.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/users', xApiKey(everything.token))).status).toBe(200)
    expect(await userCreate(everything)).toBe('no user:create')
    await expectError(await send('POST', '/api/v1/tickets', xApiKey(everything.token), { subject: 'No' }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('GET', '/api/v1/audit-logs', xApiKey(everything.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    // A viewer's key may not even list keys (api_key:read).
    await expectError(await send('GET', '/api/v1/api-keys', xApiKey(everything.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    // The narrowed key: [user:read, user:create] ∩ viewer = [user:read].
    expect((await send('GET', '/api/v1/users', xApiKey(userKeys.token))).status).toBe(200)
    expect(await userCreate(userKeys)).toBe('no user:create')
    await expectError(await send('GET', '/api/v1/tickets', xApiKey(userKeys.token)), 403, 'INSUFFICIENT_PERMISSIONS')

    await setRole('supervisor')
    // Supervisors hold user:read but not user:create, and create tickets.
    expect((await send('POST', '/api/v1/tickets', xApiKey(everything.token), { subject: 'As supervisor' })).status).toBe(201)
    expect(await userCreate(userKeys)).toBe('no user:create')
    expect(await userCreate(everything)).toBe('no user:create')

    await setRole('admin')
    expect(await userCreate(everything)).toBe('created')
    expect(await userCreate(userKeys)).toBe('role not covered')
    expect((await send('GET', '/api/v1/audit-logs', xApiKey(everything.token))).status).toBe(200)
  })

  test("promoted: a default key gains the new role's permissions; a narrowed key never exceeds its own", async () => {
    const { users } = await seedOrganization(app, 'promotion')
    const everything = await createKey(users.agent.auth, { name: 'Default' })
    const tickets = await createKey(users.agent.auth, { name: 'Tickets', permissions: ['ticket:read'] })
    await expectError(await send('GET', '/api/v1/audit-logs', xApiKey(everything.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await send('PATCH', `/api/v1/users/${users.agent.user.id}`, users.super_admin.auth, { role: 'admin' })).status).toBe(200)
    expect((await send('GET', '/api/v1/audit-logs', xApiKey(everything.token))).status).toBe(200)
    await expectError(await send('GET', '/api/v1/audit-logs', xApiKey(tickets.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('POST', '/api/v1/tickets', xApiKey(tickets.token), { subject: 'No' }), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test('disabled (DELETE /users/{id}): every key of the owner gets 401 TOKEN_INVALID; re-enabled, they work again', async () => {
    const { users } = await seedOrganization(app, 'disabling')
    const keys = [await createKey(users.agent.auth), await createKey(users.agent.auth, { permissions: ['ticket:read'] })]
    const other = await createKey(users.supervisor.auth)
    expect((await send('DELETE', `/api/v1/users/${users.agent.user.id}`, users.super_admin.auth)).status).toBeOneOf([200, 204])
    for (const key of keys)
      for (const [, header] of HEADERS) await expectError(await send('GET', '/api/v1/tickets', header(key.token)), 401, 'TOKEN_INVALID')
    // Another user's key is untouched.
    expect((await send('GET', '/api/v1/tickets', xApiKey(other.token))).status).toBe(200)
    expect((await send('PATCH', `/api/v1/users/${users.agent.user.id}`, users.super_admin.auth, { status: 'active' })).status).toBe(200)
    for (const key of keys) expect((await send('GET', '/api/v1/tickets', xApiKey(key.token))).status).toBe(200)
  })
})

describe('what a personal access token cannot do (sign-in only)', () => {
  test('create a key: 403, even with api_key:create, and nothing is created', async () => {
    const before = await keyCount()
    for (const [, header] of HEADERS) {
      const response = await send('POST', '/api/v1/api-keys', header(adminKey.token), {
        name: 'Child',
        expires_at: new Date(app.clock.now() + DAY).toISOString(),
      })
      await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
    }
    expect(await keyCount()).toBe(before)
  })

  test('revoke a key, not even itself: 403, and both keys still work', async () => {
    const sibling = await createKey(users.admin.auth)
    for (const id of [sibling.id, adminKey.id])
      await expectError(await send('DELETE', `/api/v1/api-keys/${id}`, xApiKey(adminKey.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    for (const key of [sibling, adminKey]) expect((await send('GET', '/api/v1/tickets', xApiKey(key.token))).status).toBe(200)
  })

  test('change the password: 403, and the password is unchanged', async () => {
    const response = await send('POST', '/api/v1/auth/password', xApiKey(adminKey.token), {
      current_password: PASSWORD,
      new_password: 'a-brand-new-password',
    })
    await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
    const login = await send('POST', '/api/v1/auth/login', {}, { email: 'admin@acme.test', password: PASSWORD })
    expect(login.status).toBe(200)
  })

  test('log out: 403, and the key keeps working', async () => {
    await expectError(await send('POST', '/api/v1/auth/logout', xApiKey(adminKey.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await send('GET', '/api/v1/tickets', xApiKey(adminKey.token))).status).toBe(200)
    expect((await send('GET', '/api/v1/tickets', users.admin.auth)).status).toBe(200)
  })

  test("end one of its owner's sessions (a log-out by another door): 403, and the session keeps working", async () => {
    const session = await signIn(app, users.admin.user)
    const sid = (JSON.parse(Buffer.from(session.accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid
    const narrowed = await createKey(users.admin.auth, { permissions: ['ticket:read'] })
    for (const key of [adminKey, narrowed])
      await expectError(await send('DELETE', `/api/v1/auth/sessions/${sid}`, xApiKey(key.token)), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await send('GET', '/api/v1/tickets', session.auth)).status).toBe(200)
  })

  test('enroll in MFA: 403', async () => {
    await expectError(await send('POST', '/api/v1/auth/mfa/totp', xApiKey(adminKey.token)), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test("but it may list its owner's keys (api_key:read), never showing a token", async () => {
    const response = await send('GET', '/api/v1/api-keys?page_size=100', bearer(adminKey.token))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(adminKey.token)
    expect((JSON.parse(text) as { api_keys: { id: string }[] }).api_keys.map((k) => k.id)).toContain(adminKey.id)
  })

  test("a viewer's key (viewers lack api_key:read) may not list keys: 403", async () => {
    // Viewers cannot create keys; this one was made while its owner held another role, as an
    // operator would find it after a demotion.
    const token = newPersonalAccessToken()
    const now = app.clock.now()
    const key = {
      id: 'key_VIEWER0000000000000000000',
      organization_id: acme.org.id,
      user_id: users.viewer.user.id,
      name: "Viewer's",
      token_hash: createHash('sha256').update(token).digest('hex'),
      prefix: token.slice(0, 17),
      permissions: null,
      created_at: now,
      expires_at: now + DAY,
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
    }
    await app.context.db.write('test.viewer_key', (tx) => tx.kysely.insertInto('api_keys').values(key).execute())
    expect((await send('GET', '/api/v1/tickets', xApiKey(token))).status).toBe(200)
    await expectError(await send('GET', '/api/v1/api-keys', xApiKey(token)), 403, 'INSUFFICIENT_PERMISSIONS')
  })
})
