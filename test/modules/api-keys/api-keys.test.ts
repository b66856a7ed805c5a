// Personal access tokens through the API: create (shown once, stored as SHA-256 only) and its validation, the paginated list of your own keys, revocation, the audit records and the 100-key limit.
import { afterAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import type { ApiKeysTable } from '../../../src/modules/api-keys/table.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const { users } = acme

type Headers = Record<string, string>
interface ApiKey {
  id: string
  name: string
  prefix: string
  permissions: string[] | null
  expired: boolean
  created_at: string
  expires_at: string
  last_used_at: string | null
  last_used_ip: string | null
}
type CreatedKey = ApiKey & { token: string }
interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}
interface KeyList {
  api_keys: ApiKey[]
  next_page_token: string
  total_count?: number
}

const DAY = 86_400_000
const YEAR = 365 * DAY
const send = (method: string, path: string, headers: Headers, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const ahead = (ms: number) => new Date(app.clock.now() + ms).toISOString()
const create = (auth: Headers, body: Record<string, unknown>) => send('POST', '/api/v1/api-keys', auth, body)
const createKey = async (auth: Headers = users.admin.auth, body: Record<string, unknown> = {}): Promise<CreatedKey> => {
  const response = await create(auth, { name: 'CI deploys', expires_at: ahead(30 * DAY), ...body })
  expect(response.status).toBe(201)
  return json<CreatedKey>(response)
}
const list = async (auth: Headers, query = ''): Promise<KeyList> => {
  const response = await send('GET', `/api/v1/api-keys${query}`, auth)
  expect(response.status).toBe(200)
  return json<KeyList>(response)
}
const fieldsOf = async (response: Response) => {
  expect(response.status).toBe(400)
  const body = await json<ErrorBody>(response)
  expect(body.code).toBe('VALIDATION_FAILED')
  return body.errors!.map((e) => e.field)
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** Every value of every table, as one string: to prove a secret is stored nowhere. */
const wholeDatabase = async () => {
  const { raw } = app.context.db
  const tables = await raw.all<{ name: string }>(
    app.context.db.engine === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
      : "SELECT name FROM sqlite_master WHERE type = 'table'",
  )
  const contents = await Promise.all(tables.map(async ({ name }) => JSON.stringify(await raw.all(`SELECT * FROM "${name}"`))))
  return contents.join('\n')
}

describe('POST /api/v1/api-keys', () => {
  test('201 with the token, shown once: pat_live_ + 49 base62 characters, its 17-character prefix, no-store', async () => {
    const response = await create(users.admin.auth, { name: '  CI deploys  ', expires_at: ahead(30 * DAY) })
    expect(response.status).toBe(201)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const key = await json<CreatedKey>(response)
    expect(Object.keys(key).sort()).toEqual([
      'created_at',
      'expired',
      'expires_at',
      'id',
      'last_used_at',
      'last_used_ip',
      'name',
      'permissions',
      'prefix',
      'token',
    ])
    expect(key.token).toMatch(/^pat_live_[0-9A-Za-z]{49}$/)
    expect(key.prefix).toBe(key.token.slice(0, 17))
    expect(key.id).toMatch(/^key_[0-9A-Z]{26}$/)
    expect(key).toMatchObject({
      name: 'CI deploys',
      permissions: null,
      expired: false,
      created_at: new Date(app.clock.now()).toISOString(),
      expires_at: ahead(30 * DAY),
      last_used_at: null,
      last_used_ip: null,
    })
    // The token works: it is the real thing, not a display value.
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': key.token })).status).toBe(200)
  })

  test('the database keeps the SHA-256 (hex) of the token and its prefix, and the token itself nowhere', async () => {
    const key = await createKey(users.admin.auth, { name: 'Stored hashed' })
    const row = (await app.context.db.raw.get<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = ?', [key.id]))!
    expect(row.token_hash).toBe(sha256(key.token))
    expect(row.prefix).toBe(key.token.slice(0, 17))
    expect(row).toMatchObject({
      organization_id: acme.org.id,
      user_id: users.admin.user.id,
      name: 'Stored hashed',
      permissions: null,
      revoked_at: null,
      last_used_at: null,
    })
    // Neither the token nor its secret part (after the displayed prefix) is in any table: not in
    // api_keys, not in the audit log, not in the events.
    const everything = await wholeDatabase()
    expect(everything).toContain(key.id)
    expect(everything).not.toContain(key.token)
    expect(everything).not.toContain(key.token.slice(17))
    expect(everything).not.toContain(key.token.slice(17, 40))
    // Nor in the logs.
    expect(app.logs.lines.join('\n')).not.toContain(key.token.slice(17))
  })

  test('each key gets a fresh token', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => createKey(users.agent.auth)))
    expect(new Set(keys.map((k) => k.token)).size).toBe(3)
    expect(new Set(keys.map((k) => k.id)).size).toBe(3)
  })

  test('every role holding api_key:create may create one; a viewer may not (403)', async () => {
    for (const role of ['super_admin', 'admin', 'supervisor', 'agent'] as const) await createKey(users[role].auth)
    const response = await create(users.viewer.auth, { name: 'Viewer', expires_at: ahead(DAY) })
    expect(response.status).toBe(403)
    expect(await json(response)).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' })
  })

  test('without a credential: 401', async () => {
    const response = await create({}, { name: 'Anonymous', expires_at: ahead(DAY) })
    expect(response.status).toBe(401)
    expect(await json(response)).toMatchObject({ code: 'UNAUTHENTICATED' })
  })

  describe('expires_at', () => {
    test('required: 400 naming expires_at', async () => {
      expect(await fieldsOf(await create(users.admin.auth, { name: 'No expiry' }))).toEqual(['expires_at'])
      expect(await fieldsOf(await create(users.admin.auth, { name: 'No expiry', expires_at: null }))).toEqual(['expires_at'])
    })

    test('up to exactly 365 days ahead passes; a millisecond, a second or a day more does not', async () => {
      expect((await createKey(users.admin.auth, { expires_at: ahead(YEAR) })).expires_at).toBe(ahead(YEAR))
      expect((await createKey(users.admin.auth, { expires_at: ahead(YEAR - 1000) })).expires_at).toBe(ahead(YEAR - 1000))
      for (const over of [YEAR + 1, YEAR + 1000, YEAR + DAY]) {
        const response = await create(users.admin.auth, { name: 'Too long', expires_at: ahead(over) })
        expect(await fieldsOf(response)).toEqual(['expires_at'])
      }
    })

    test('must be in the future: now, a second ago or last year -> 400', async () => {
      for (const when of [0, -1000, -YEAR]) {
        const response = await create(users.admin.auth, { name: 'Past', expires_at: ahead(when) })
        expect(await fieldsOf(response)).toEqual(['expires_at'])
      }
      // A millisecond ahead is the future.
      await createKey(users.admin.auth, { expires_at: ahead(1) })
    })

    test('any time-zone offset, kept as the instant it names (in UTC)', async () => {
      const key = await createKey(users.admin.auth, { expires_at: '2026-06-01T02:00:00+02:00' })
      expect(key.expires_at).toBe('2026-06-01T00:00:00.000Z')
      const minus = await createKey(users.admin.auth, { expires_at: '2026-05-31T19:30:00.250-04:30' })
      expect(minus.expires_at).toBe('2026-06-01T00:00:00.250Z')
      // Finer than milliseconds: kept to the millisecond.
      expect((await createKey(users.admin.auth, { expires_at: '2026-06-01T00:00:00.123456Z' })).expires_at).toBe('2026-06-01T00:00:00.123Z')
      expect((await createKey(users.admin.auth, { expires_at: '2026-12-31T23:59:59Z' })).expires_at).toBe('2026-12-31T23:59:59.000Z')
    })

    test.each([
      ['a word', 'tomorrow'],
      ['a number as a string', '1767225600000'],
      ['a number', 1767225600000],
      ['a bare date (no time)', '2026-06-01'],
      ['no time zone', '2026-06-01T00:00:00'],
      ['a day-first date', '01/06/2026'],
      ['a US-style date and time', '2026/06/01 10:00 PM'],
      ['a JavaScript Date string', 'Mon Jun 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time)'],
      ['30 February', '2026-02-30T00:00:00Z'],
      ['31 April', '2026-04-31T00:00:00Z'],
      ['hour 24', '2026-06-01T24:00:00Z'],
      ['month 13', '2026-13-01T00:00:00Z'],
      ['empty', ''],
    ])('not an RFC 3339 date-time (%s): 400 naming expires_at', async (_, value) => {
      const response = await create(users.admin.auth, { name: 'Bad date', expires_at: value })
      expect(await fieldsOf(response)).toEqual(['expires_at'])
    })
  })

  describe('name', () => {
    test.each([
      ['missing', undefined],
      ['empty', ''],
      ['blank', '   '],
      ['too long', 'x'.repeat(101)],
      ['not a string', 42],
    ])('%s: 400 naming name', async (_, name) => {
      const response = await create(users.admin.auth, { name, expires_at: ahead(DAY) })
      expect(await fieldsOf(response)).toEqual(['name'])
    })

    test('100 characters pass; the name is trimmed', async () => {
      expect((await createKey(users.admin.auth, { name: 'n'.repeat(100) })).name).toBe('n'.repeat(100))
      expect((await createKey(users.admin.auth, { name: '\t Nightly export \n' })).name).toBe('Nightly export')
    })
  })

  describe('permissions', () => {
    test('narrowed to the given ones, each the caller holds; a wildcard the caller holds is kept as given', async () => {
      expect((await createKey(users.agent.auth, { permissions: ['ticket:read', 'ticket:comment'] })).permissions).toEqual([
        'ticket:read',
        'ticket:comment',
      ])
      expect((await createKey(users.supervisor.auth, { permissions: ['ticket:*'] })).permissions).toEqual(['ticket:*'])
      expect((await createKey(users.admin.auth, { permissions: ['user:*', 'billing:read'] })).permissions).toEqual([
        'user:*',
        'billing:read',
      ])
      expect((await createKey(users.super_admin.auth, { permissions: ['*:*'] })).permissions).toEqual(['*:*'])
    })

    test('repeated permissions are kept once', async () => {
      expect((await createKey(users.agent.auth, { permissions: ['ticket:read', 'ticket:read'] })).permissions).toEqual(['ticket:read'])
    })

    test('an empty array: 400 naming permissions (leave it out for all of yours)', async () => {
      expect(await fieldsOf(await create(users.admin.auth, { name: 'Nothing', expires_at: ahead(DAY), permissions: [] }))).toEqual([
        'permissions',
      ])
    })

    test('not an array of strings: 400 naming permissions', async () => {
      for (const permissions of ['ticket:read', [1], null]) {
        const fields = await fieldsOf(await create(users.admin.auth, { name: 'Odd', expires_at: ahead(DAY), permissions }))
        expect(fields.every((f) => f.startsWith('permissions'))).toBe(true)
      }
    })

    test('strings that are not permissions: 400 naming permissions.<i> for each, and nothing else', async () => {
      const permissions = [
        'ticket:read',
        'ticket',
        'ticket:fly',
        '*',
        'tickets:*',
        '*:read',
        'TICKET:READ',
        'ticket:read:x',
        ' ticket:read',
        'user:read',
      ]
      const response = await create(users.admin.auth, { name: 'Garbage', expires_at: ahead(DAY), permissions })
      expect(await fieldsOf(response)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `permissions.${i}`))
    })

    test('names every JavaScript object has are not resources: 400, never a 500 or a key', async () => {
      for (const grant of ['toString:read', 'constructor:*', '__proto__:*', 'hasOwnProperty:read']) {
        const response = await create(users.super_admin.auth, { name: 'Prototype', expires_at: ahead(DAY), permissions: [grant] })
        expect({ grant, status: response.status }).toEqual({ grant, status: 400 })
        expect((await json<ErrorBody>(response)).errors).toEqual([{ field: 'permissions.0', message: expect.any(String) }])
      }
    })

    test('a permission too long for the schema: 400 naming permissions.<i>', async () => {
      expect(
        await fieldsOf(
          await create(users.admin.auth, {
            name: 'Long',
            expires_at: ahead(DAY),
            permissions: ['ticket:read', `ticket:${'r'.repeat(80)}`],
          }),
        ),
      ).toEqual(['permissions.1'])
    })

    test.each([
      // role, asked, offending indexes
      ['agent', ['user:delete'], [0]],
      ['agent', ['ticket:read', 'user:delete'], [1]],
      ['agent', ['ticket:*'], [0]], // an agent cannot delete tickets
      ['agent', ['*:*'], [0]],
      ['agent', ['api_key:read', 'audit:read', 'ticket:delete'], [1, 2]],
      ['supervisor', ['user:create'], [0]],
      ['admin', ['*:*'], [0]],
      ['admin', ['subscription:update'], [0]],
      ['admin', ['payment:*'], [0]],
      ['agent', ['ticket:read', 'ticket:read', 'user:delete'], [2]], // indexes of the request, repeats included
    ] as const)('%s asking for %p: 400 naming each permission it does not hold', async (role, permissions, bad) => {
      const response = await create(users[role].auth, { name: 'Wider', expires_at: ahead(DAY), permissions })
      expect(response.status).toBe(400)
      const body = await json<ErrorBody>(response)
      expect(body.errors!.map((e) => e.field)).toEqual(bad.map((i) => `permissions.${i}`))
      for (const [n, i] of bad.entries()) expect(body.errors![n]!.message).toContain(permissions[i]!)
    })

    test('a refused request creates nothing', async () => {
      const count = async () => (await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM api_keys'))!.n
      const before = await count()
      await create(users.agent.auth, { name: 'Wider', expires_at: ahead(DAY), permissions: ['user:delete'] })
      await create(users.agent.auth, { name: 'Late', expires_at: ahead(-DAY) })
      expect(await count()).toBe(before)
    })
  })
})

describe('GET /api/v1/api-keys', () => {
  test('your own keys, newest first, never the token; the same fields as at creation', async () => {
    const { users } = await seedOrganization(app, 'listing')
    const first = await createKey(users.agent.auth, { name: 'First', permissions: ['ticket:read'] })
    app.clock.advance(1000)
    const second = await createKey(users.agent.auth, { name: 'Second' })
    await createKey(users.admin.auth, { name: "Not the agent's" })
    const response = await send('GET', '/api/v1/api-keys', users.agent.auth)
    expect(response.status).toBe(200)
    const text = await response.text()
    for (const key of [first, second]) {
      expect(text).not.toContain(key.token)
      expect(text).not.toContain(key.token.slice(17))
    }
    expect(text).not.toContain('"token"')
    const body = JSON.parse(text) as KeyList
    expect(body.next_page_token).toBe('')
    const { token: _first, ...firstShown } = first
    const { token: _second, ...secondShown } = second
    expect(body.api_keys).toEqual([secondShown, firstShown])
  })

  test("only the caller's: another user of the organization, and another organization, see none of them", async () => {
    const mine = await createKey(users.supervisor.auth, { name: 'Supervisor only' })
    for (const other of [users.admin, users.super_admin, globex.users.supervisor]) {
      const { api_keys } = await list(other.auth, '?page_size=100')
      expect(api_keys.map((k) => k.id)).not.toContain(mine.id)
    }
    expect((await list(users.supervisor.auth, '?page_size=100')).api_keys.map((k) => k.id)).toContain(mine.id)
  })

  test('revoked keys are left out; expired ones stay, marked expired', async () => {
    const { users } = await seedOrganization(app, 'revoked-list')
    const live = await createKey(users.agent.auth, { name: 'Live', expires_at: ahead(2 * DAY) })
    const soon = await createKey(users.agent.auth, { name: 'Soon', expires_at: ahead(1000) })
    const gone = await createKey(users.agent.auth, { name: 'Gone' })
    expect((await send('DELETE', `/api/v1/api-keys/${gone.id}`, users.agent.auth)).status).toBe(204)
    app.clock.advance(1000)
    const { api_keys } = await list(users.agent.auth)
    expect(api_keys.map((k) => [k.name, k.expired]).sort()).toEqual([
      ['Live', false],
      ['Soon', true],
    ])
    expect(api_keys.find((k) => k.id === live.id)!.expired).toBe(false)
    expect(api_keys.find((k) => k.id === soon.id)!.expired).toBe(true)
  })

  test('paginated: page_size and next_page_token walk every key once, newest first; include_total counts them', async () => {
    const { users } = await seedOrganization(app, 'paging')
    const made: string[] = []
    for (let i = 0; i < 7; i++) {
      made.push((await createKey(users.agent.auth, { name: `Key ${i}` })).id)
      // Two keys share each creation time: the order must still be total.
      if (i % 2 === 1) app.clock.advance(1000)
    }
    const seen: string[] = []
    let token = ''
    let pages = 0
    do {
      const page = await list(users.agent.auth, `?page_size=3&include_total=true${token ? `&page_token=${encodeURIComponent(token)}` : ''}`)
      expect(page.api_keys.length).toBeLessThanOrEqual(3)
      expect(page.total_count).toBe(7)
      seen.push(...page.api_keys.map((k) => k.id))
      token = page.next_page_token
      pages++
    } while (token !== '' && pages < 10)
    expect(pages).toBe(3)
    expect(new Set(seen).size).toBe(7)
    expect([...seen].sort()).toEqual([...made].sort())
    // Newest first: created_at never increases along the walk.
    const created = (await list(users.agent.auth, '?page_size=100')).api_keys.map((k) => k.created_at)
    expect(created).toEqual([...created].sort().reverse())
    // sort=created_at:asc is the same set, oldest first.
    const ascending = (await list(users.agent.auth, '?page_size=100&sort=created_at:asc')).api_keys.map((k) => k.id)
    expect(ascending).toEqual((await list(users.agent.auth, '?page_size=100')).api_keys.map((k) => k.id).reverse())
  })

  test("a page token of another user's list is refused; page_size out of range is a 400", async () => {
    const { users } = await seedOrganization(app, 'tokens')
    for (let i = 0; i < 3; i++) await createKey(users.agent.auth)
    for (let i = 0; i < 3; i++) await createKey(users.supervisor.auth)
    const { next_page_token } = await list(users.agent.auth, '?page_size=1')
    expect(next_page_token).not.toBe('')
    const other = await send('GET', `/api/v1/api-keys?page_size=1&page_token=${encodeURIComponent(next_page_token)}`, users.supervisor.auth)
    expect(other.status).toBe(400)
    expect(await json(other)).toMatchObject({ code: 'INVALID_PAGE_TOKEN' })
    for (const size of ['0', '101', 'x'])
      expect(await fieldsOf(await send('GET', `/api/v1/api-keys?page_size=${size}`, users.agent.auth))).toEqual(['page_size'])
  })

  test('a viewer may not list keys (api_key:read): 403', async () => {
    const response = await send('GET', '/api/v1/api-keys', users.viewer.auth)
    expect(response.status).toBe(403)
    expect(await json(response)).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' })
  })
})

describe('DELETE /api/v1/api-keys/{id}', () => {
  test('204; the key leaves the list; a second DELETE is 404', async () => {
    const key = await createKey(users.agent.auth, { name: 'To revoke' })
    const response = await send('DELETE', `/api/v1/api-keys/${key.id}`, users.agent.auth)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect((await list(users.agent.auth, '?page_size=100')).api_keys.map((k) => k.id)).not.toContain(key.id)
    expect(
      (await app.context.db.raw.get<{ revoked_at: number }>('SELECT revoked_at FROM api_keys WHERE id = ?', [key.id]))!.revoked_at,
    ).toBe(app.clock.now())
    const again = await send('DELETE', `/api/v1/api-keys/${key.id}`, users.agent.auth)
    expect(again.status).toBe(404)
    expect(await json(again)).toMatchObject({ code: 'NOT_FOUND' })
  })

  test("another user's key (even an admin's or the owner's own organization's super admin), another organization's, or no such id: 404, and the key still works", async () => {
    const agentKey = await createKey(users.agent.auth, { name: "Agent's" })
    const globexKey = await createKey(globex.users.admin.auth, { name: 'Globex' })
    for (const [auth, id] of [
      [users.admin.auth, agentKey.id],
      [users.super_admin.auth, agentKey.id],
      [users.supervisor.auth, agentKey.id],
      [users.super_admin.auth, globexKey.id],
      [users.admin.auth, 'key_00000000000000000000000000'],
      [users.admin.auth, 'nope'],
    ] as const) {
      const response = await send('DELETE', `/api/v1/api-keys/${id}`, auth)
      expect({ id, status: response.status }).toEqual({ id, status: 404 })
    }
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': agentKey.token })).status).toBe(200)
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': globexKey.token })).status).toBe(200)
  })

  test('a viewer cannot revoke (403 before anything else)', async () => {
    const key = await createKey(users.agent.auth)
    const response = await send('DELETE', `/api/v1/api-keys/${key.id}`, users.viewer.auth)
    expect(response.status).toBe(403)
  })
})

describe('audit', () => {
  interface AuditRecord {
    event: string
    outcome: string
    actor: { type: string; id: string | null }
    target: { type: string; id: string | null } | null
    details: Record<string, unknown>
    organization_id: string
  }
  const auditOf = async (event: string, org = acme) => {
    const response = await send('GET', `/api/v1/audit-logs?event=${event}&page_size=100`, org.users.admin.auth)
    expect(response.status).toBe(200)
    const text = await response.text()
    return { text, records: (JSON.parse(text) as { audit_logs: AuditRecord[] }).audit_logs }
  }

  test('pat.created and pat.revoked, targeting the key, by its owner; never the token', async () => {
    const key = await createKey(users.agent.auth, { name: 'Audited', permissions: ['ticket:read'] })
    expect((await send('DELETE', `/api/v1/api-keys/${key.id}`, users.agent.auth)).status).toBe(204)
    const created = await auditOf('pat.created')
    const revoked = await auditOf('pat.revoked')
    const createdRecord = created.records.find((r) => r.target?.id === key.id)
    const revokedRecord = revoked.records.find((r) => r.target?.id === key.id)
    expect(createdRecord).toMatchObject({
      event: 'pat.created',
      outcome: 'success',
      organization_id: acme.org.id,
      actor: { type: 'user', id: users.agent.user.id },
      target: { type: 'api_key', id: key.id },
      details: { name: 'Audited', prefix: key.prefix, expires_at: key.expires_at, permissions: ['ticket:read'] },
    })
    expect(revokedRecord).toMatchObject({
      event: 'pat.revoked',
      outcome: 'success',
      actor: { type: 'user', id: users.agent.user.id },
      target: { type: 'api_key', id: key.id },
    })
    for (const { text } of [created, revoked]) {
      expect(text).not.toContain(key.token)
      expect(text).not.toContain(key.token.slice(17))
    }
  })

  test('a refused creation or revocation writes no pat.* record', async () => {
    const before = (await auditOf('pat.created')).records.length + (await auditOf('pat.revoked')).records.length
    await create(users.agent.auth, { name: 'Wider', expires_at: ahead(DAY), permissions: ['user:delete'] })
    await send('DELETE', '/api/v1/api-keys/key_00000000000000000000000000', users.agent.auth)
    expect((await auditOf('pat.created')).records.length + (await auditOf('pat.revoked')).records.length).toBe(before)
  })

  test('records stay in their organization', async () => {
    const key = await createKey(globex.users.agent.auth, { name: 'Globex audited' })
    expect((await auditOf('pat.created')).records.map((r) => r.target?.id)).not.toContain(key.id)
    expect((await auditOf('pat.created', globex)).records.map((r) => r.target?.id)).toContain(key.id)
  })
})

describe('at most 100 live keys per user', () => {
  test('the 101st is 409 CONFLICT; revoked and expired keys do not count; revoking one makes room', async () => {
    const { users, org } = await seedOrganization(app, 'limits')
    const owner = users.supervisor
    const now = app.clock.now()
    const row = (i: number, extra: Partial<ApiKeysTable> = {}): ApiKeysTable => ({
      id: `key_LIMIT${String(i).padStart(21, '0')}`,
      organization_id: org.id,
      user_id: owner.user.id,
      name: `Bulk ${i}`,
      token_hash: sha256(`bulk-${i}`),
      prefix: 'pat_live_bulk0000',
      permissions: null,
      created_at: now - 1000,
      expires_at: now + DAY,
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
      ...extra,
    })
    // 99 live keys, plus some that no longer count.
    const insert = (rows: ApiKeysTable[]) =>
      app.context.db.write('test.keys', (tx) => tx.kysely.insertInto('api_keys').values(rows).execute())
    await insert(Array.from({ length: 99 }, (_, i) => row(i)))
    await insert(Array.from({ length: 5 }, (_, i) => row(200 + i, { revoked_at: now - 500 })))
    await insert(Array.from({ length: 5 }, (_, i) => row(300 + i, { expires_at: now - 500 })))
    const hundredth = await createKey(owner.auth, { name: 'Hundredth' })
    const refused = await create(owner.auth, { name: 'One too many', expires_at: ahead(DAY) })
    expect(refused.status).toBe(409)
    expect(await json(refused)).toMatchObject({ code: 'CONFLICT' })
    // The limit is per user: another user of the organization still creates keys.
    await createKey(users.agent.auth, { name: 'Someone else' })
    // Revoking one makes room for exactly one.
    expect((await send('DELETE', `/api/v1/api-keys/${hundredth.id}`, owner.auth)).status).toBe(204)
    await createKey(owner.auth, { name: 'Replacement' })
    expect((await create(owner.auth, { name: 'Again too many', expires_at: ahead(DAY) })).status).toBe(409)
    // A key that expires makes room too.
    await app.context.db.raw.run('UPDATE api_keys SET expires_at = ? WHERE id = ?', [app.clock.now(), row(0).id])
    await createKey(owner.auth, { name: 'After an expiry' })
  })
})
