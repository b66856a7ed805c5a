// GET /api/v1/users through the whole app: item shape, organization scope, filters, sorts, keyset paging, totals and page-token binding.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')

interface ListItem {
  id: string
  name: string
  email: string
  role: string
  status: string
  created_at: string
  updated_at: string
}
interface ListBody {
  users: ListItem[]
  next_page_token: string
  total_count?: number
}
interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}

async function list(auth: Record<string, string>, params: Record<string, string | number | boolean> = {}) {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) search.append(key, String(value))
  const query = search.toString()
  const response = await app.request(`/api/v1/users${query ? `?${query}` : ''}`, { headers: auth })
  return { status: response.status, body: await json<ListBody & ErrorBody>(response) }
}

async function ok(auth: Record<string, string>, params: Record<string, string | number | boolean> = {}): Promise<ListBody> {
  const { status, body } = await list(auth, params)
  expect(status).toBe(200)
  return body
}

/** The names of every user, following next_page_token from the first page to the last. */
async function walk(
  auth: Record<string, string>,
  params: Record<string, string | number | boolean>,
): Promise<{ items: ListItem[]; pages: number }> {
  const items: ListItem[] = []
  let token = ''
  let pages = 0
  do {
    const body = await ok(auth, { ...params, ...(token ? { page_token: token } : {}) })
    items.push(...body.users)
    token = body.next_page_token
    pages++
  } while (token !== '' && pages < 50)
  return { items, pages }
}

async function createUser(admin: SeededOrg, name: string, email: string, role: string): Promise<string> {
  const response = await app.request('/api/v1/users', {
    method: 'POST',
    headers: { ...admin.users.admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, role, password: 'password-123' }),
  })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

const names = (items: ListItem[]) => items.map((u) => u.name)

describe('the items', () => {
  test('have exactly id, name, email, role, status, created_at and updated_at', async () => {
    const body = await ok(acme.users.admin.auth, { page_size: 100 })
    expect(body.users.length).toBe(5)
    for (const user of body.users)
      expect(Object.keys(user).sort()).toEqual(['created_at', 'email', 'id', 'name', 'role', 'status', 'updated_at'])
    const admin = body.users.find((u) => u.id === acme.users.admin.user.id)
    const seededAt = new Date(acme.users.admin.user.created_at).toISOString()
    expect(admin).toEqual({
      id: acme.users.admin.user.id,
      name: 'admin of acme',
      email: 'admin@acme.test',
      role: 'admin',
      status: 'active',
      created_at: seededAt,
      updated_at: seededAt,
    })
    expect(Object.keys(body).sort()).toEqual(['next_page_token', 'users'])
    expect(body.next_page_token).toBe('')
  })

  test("are only those of the caller's organization", async () => {
    const ofAcme = await ok(acme.users.viewer.auth, { page_size: 100 })
    expect(ofAcme.users.map((u) => u.id).sort()).toEqual(
      Object.values(acme.users)
        .map((u) => u.user.id)
        .sort(),
    )
    const ofGlobex = await ok(globex.users.viewer.auth, { page_size: 100 })
    expect(ofGlobex.users.map((u) => u.email).sort()).toEqual([
      'admin@globex.test',
      'agent@globex.test',
      'super_admin@globex.test',
      'supervisor@globex.test',
      'viewer@globex.test',
    ])
    expect((await ok(acme.users.admin.auth, { q: 'admin' })).users.map((u) => u.email)).toEqual(['admin@acme.test'])
    expect((await ok(acme.users.admin.auth, { q: 'admin@globex' })).users).toEqual([])
  })

  test('the default is 20 a page, newest first', async () => {
    const body = await ok(acme.users.admin.auth)
    expect(body.users.length).toBe(5)
    // All five were seeded at the same instant: the tie is broken by id, descending.
    expect(body.users.map((u) => u.id)).toEqual(
      Object.values(acme.users)
        .map((u) => u.user.id)
        .sort()
        .reverse(),
    )
  })
})

describe('filters', async () => {
  const org = await seedOrganization(app, 'filters')
  app.clock.advance(1000)
  await createUser(org, '100% Sure', 'pct@filters.test', 'agent')
  app.clock.advance(1000)
  await createUser(org, '1000 Sure', 'thousand@filters.test', 'agent')
  app.clock.advance(1000)
  await createUser(org, 'under_score', 'us@filters.test', 'viewer')
  app.clock.advance(1000)
  const disabledId = await createUser(org, 'underXscore', 'ux@filters.test', 'viewer')
  app.clock.advance(1000)
  await createUser(org, 'Zoe Quinn', 'alpha@filters.test', 'supervisor')
  app.clock.advance(1000)
  await createUser(org, 'Alphonse', 'zz@filters.test', 'agent')
  const disabled = await app.request(`/api/v1/users/${disabledId}`, { method: 'DELETE', headers: org.users.admin.auth })
  expect(disabled.status).toBe(204)
  const admin = org.users.admin.auth
  const byName = { sort: 'name:asc', page_size: 100 }

  test.each([
    ['role=viewer', { role: 'viewer' }, ['under_score', 'underXscore', 'viewer of filters']],
    ['role=supervisor', { role: 'supervisor' }, ['supervisor of filters', 'Zoe Quinn']],
    ['role=agent', { role: 'agent' }, ['100% Sure', '1000 Sure', 'agent of filters', 'Alphonse']],
    ['role=super_admin', { role: 'super_admin' }, ['super_admin of filters']],
    ['status=disabled', { status: 'disabled' }, ['underXscore']],
    ['status=active and role=viewer', { status: 'active', role: 'viewer' }, ['under_score', 'viewer of filters']],
    ['role=viewer and q=under', { role: 'viewer', q: 'under' }, ['under_score', 'underXscore']],
    ['status=active, role=viewer and q=under', { status: 'active', role: 'viewer', q: 'under' }, ['under_score']],
    ['role=admin and q=zz (no admin has it)', { role: 'admin', q: 'zz' }, []],
  ])('%s', async (_, filters, expected) => {
    expect(names((await ok(admin, { ...byName, ...filters })).users)).toEqual(expected)
  })

  test('status=active leaves out only the disabled user', async () => {
    const active = names((await ok(admin, { ...byName, status: 'active' })).users)
    expect(active).toEqual([
      '100% Sure',
      '1000 Sure',
      'admin of filters',
      'agent of filters',
      'Alphonse',
      'super_admin of filters',
      'supervisor of filters',
      'under_score',
      'viewer of filters',
      'Zoe Quinn',
    ])
  })

  test.each([
    // A prefix of the name...
    ['zoe', ['Zoe Quinn']],
    ['ZOE Q', ['Zoe Quinn']],
    // ...or of the e-mail...
    ['zz', ['Alphonse']],
    ['ALPHA@', ['Zoe Quinn']],
    // ...either one, each user once.
    ['alph', ['Alphonse', 'Zoe Quinn']],
    ['ad', ['admin of filters']],
    ['us', ['under_score']],
    // A prefix, not a substring.
    ['quinn', []],
    ['sure', []],
    ['filters', []],
    // % and _ are themselves, not wildcards.
    ['100', ['100% Sure', '1000 Sure']],
    ['100%', ['100% Sure']],
    ['100% s', ['100% Sure']],
    ['under', ['under_score', 'underXscore']],
    ['UNDER', ['under_score', 'underXscore']],
    ['under_', ['under_score']],
    ['%', []],
    ['_', []],
    ['%sure', []],
    ['\\', []],
  ])('q=%p', async (q, expected) => {
    expect(names((await ok(admin, { ...byName, q })).users)).toEqual(expected)
  })

  test('include_total counts the filtered set, on every page', async () => {
    const first = await ok(admin, { role: 'agent', include_total: true, page_size: 1 })
    expect(first.total_count).toBe(4)
    expect(first.users.length).toBe(1)
    expect(first.next_page_token).not.toBe('')
    const second = await ok(admin, { role: 'agent', include_total: true, page_size: 1, page_token: first.next_page_token })
    expect(second.total_count).toBe(4)
    expect(second.users.length).toBe(1)
    expect(second.users[0]!.id).not.toBe(first.users[0]!.id)
    expect((await ok(admin, { include_total: true, page_size: 1 })).total_count).toBe(11)
    expect((await ok(admin, { include_total: true, q: 'under', status: 'active' })).total_count).toBe(1)
    expect((await ok(admin, { include_total: true, q: 'nobody' })).total_count).toBe(0)
  })

  test('without include_total (or with false) there is no total_count', async () => {
    expect('total_count' in (await ok(admin, { role: 'agent' }))).toBe(false)
    expect('total_count' in (await ok(admin, { role: 'agent', include_total: false }))).toBe(false)
  })

  test('paging through all users, 2 a page, returns every user once', async () => {
    const { items, pages } = await walk(admin, { page_size: 2 })
    expect(pages).toBe(6)
    expect(items.length).toBe(11)
    expect(new Set(items.map((u) => u.id)).size).toBe(11)
    expect(names(items).sort()).toEqual([
      '100% Sure',
      '1000 Sure',
      'Alphonse',
      'Zoe Quinn',
      'admin of filters',
      'agent of filters',
      'super_admin of filters',
      'supervisor of filters',
      'underXscore',
      'under_score',
      'viewer of filters',
    ])
  })

  test('paging a filtered list stays within the filter', async () => {
    const { items, pages } = await walk(admin, { q: 'under', page_size: 1, sort: 'name:desc' })
    expect(pages).toBe(2)
    expect(names(items)).toEqual(['underXscore', 'under_score'])
  })

  test('a page token used with another q: 400 INVALID_PAGE_TOKEN', async () => {
    const first = await ok(admin, { q: 'under', page_size: 1 })
    expect(first.next_page_token).not.toBe('')
    const { status, body } = await list(admin, { q: '100', page_size: 1, page_token: first.next_page_token })
    expect(status).toBe(400)
    expect(body.code).toBe('INVALID_PAGE_TOKEN')
    // The same token with the same q is fine.
    expect((await list(admin, { q: 'under', page_size: 1, page_token: first.next_page_token })).status).toBe(200)
  })

  test.each([
    ['q dropped', { page_size: 1 }],
    ['a role added', { q: 'under', role: 'viewer', page_size: 1 }],
    ['another sort', { q: 'under', sort: 'email:desc', page_size: 1 }],
    ['q in another case', { q: 'UNDER', page_size: 1 }],
  ])('a page token used with %s: 400 INVALID_PAGE_TOKEN', async (_, params) => {
    const first = await ok(admin, { q: 'under', page_size: 1 })
    const { status, body } = await list(admin, { ...params, page_token: first.next_page_token })
    expect([status, body.code]).toEqual([400, 'INVALID_PAGE_TOKEN'])
  })

  test('a page token used by another organization: 400 INVALID_PAGE_TOKEN', async () => {
    const first = await ok(admin, { page_size: 1 })
    const { status, body } = await list(acme.users.admin.auth, { page_size: 1, page_token: first.next_page_token })
    expect([status, body.code]).toEqual([400, 'INVALID_PAGE_TOKEN'])
  })

  test('a page token altered by one character: 400 INVALID_PAGE_TOKEN', async () => {
    const token = (await ok(admin, { page_size: 1 })).next_page_token
    const altered = token.slice(0, 5) + (token[5] === 'A' ? 'B' : 'A') + token.slice(6)
    const { status, body } = await list(admin, { page_size: 1, page_token: altered })
    expect([status, body.code]).toEqual([400, 'INVALID_PAGE_TOKEN'])
  })
})

describe('sorts', async () => {
  const org = await seedOrganization(app, 'sorts')
  const seededIds = Object.values(org.users)
    .map((u) => u.user.id)
    .sort()
  const seededNamesById = new Map(Object.values(org.users).map((u) => [u.user.id, u.user.name]))
  const seededByIdAsc = seededIds.map((id) => seededNamesById.get(id)!)
  // Created in an order that is neither the name order nor the e-mail order.
  for (const [name, email] of [
    ['carol', 'mm.carol@sorts.test'],
    ['alice', 'zz.alice@sorts.test'],
    ['Bob', 'aa.bob@sorts.test'],
    ['ALICE', 'nn.alice@sorts.test'],
  ]) {
    app.clock.advance(60_000)
    await createUser(org, name!, email!, 'agent')
  }
  const viewer = org.users.viewer.auth

  const expected: [string, string[]][] = [
    // The five seeded users share one created_at: ids (creation order) break the tie.
    ['created_at:asc', [...seededByIdAsc, 'carol', 'alice', 'Bob', 'ALICE']],
    ['created_at:desc', ['ALICE', 'Bob', 'alice', 'carol', ...[...seededByIdAsc].reverse()]],
    // Without regard to case; alice and ALICE tie, and alice was created first (smaller id).
    [
      'name:asc',
      [
        'admin of sorts',
        'agent of sorts',
        'alice',
        'ALICE',
        'Bob',
        'carol',
        'super_admin of sorts',
        'supervisor of sorts',
        'viewer of sorts',
      ],
    ],
    [
      'name:desc',
      [
        'viewer of sorts',
        'supervisor of sorts',
        'super_admin of sorts',
        'carol',
        'Bob',
        'ALICE',
        'alice',
        'agent of sorts',
        'admin of sorts',
      ],
    ],
    // aa.bob, admin, agent, mm.carol, nn.alice, super_admin, supervisor, viewer, zz.alice
    [
      'email:asc',
      [
        'Bob',
        'admin of sorts',
        'agent of sorts',
        'carol',
        'ALICE',
        'super_admin of sorts',
        'supervisor of sorts',
        'viewer of sorts',
        'alice',
      ],
    ],
    [
      'email:desc',
      [
        'alice',
        'viewer of sorts',
        'supervisor of sorts',
        'super_admin of sorts',
        'ALICE',
        'carol',
        'agent of sorts',
        'admin of sorts',
        'Bob',
      ],
    ],
  ]

  test.each(expected)('sort=%s on one page', async (sort, order) => {
    expect(names((await ok(viewer, { sort, page_size: 100 })).users)).toEqual(order)
  })

  test.each(expected)('sort=%s, 2 a page: the same order, every user once', async (sort, order) => {
    const { items, pages } = await walk(viewer, { sort, page_size: 2 })
    expect(names(items)).toEqual(order)
    expect(pages).toBe(5)
  })

  test.each(expected)('sort=%s, 1 a page: the same order', async (sort, order) => {
    const { items, pages } = await walk(viewer, { sort, page_size: 1 })
    expect(names(items)).toEqual(order)
    expect(pages).toBe(9)
  })

  test('alice, Bob and carol come in that order by name, not in ASCII order (Bob, alice, carol)', async () => {
    const body = await ok(viewer, { sort: 'name:asc', q: 'a', page_size: 100 })
    // q=a: names alice, ALICE, admin..., agent...; e-mails aa.bob, admin, agent.
    expect(names(body.users)).toEqual(['admin of sorts', 'agent of sorts', 'alice', 'ALICE', 'Bob'])
    const three = names((await ok(viewer, { sort: 'name:asc', page_size: 100 })).users).filter((n) => ['alice', 'Bob', 'carol'].includes(n))
    expect(three).toEqual(['alice', 'Bob', 'carol'])
  })

  test('created_at shows the creation time', async () => {
    const body = await ok(viewer, { sort: 'created_at:desc', page_size: 1 })
    expect(body.users[0]).toMatchObject({ name: 'ALICE', created_at: new Date(app.clock.now()).toISOString() })
  })
})

describe('validation and access', () => {
  test.each([
    ['sort=name:sideways', { sort: 'name:sideways' }, 'sort'],
    ['sort=password:asc', { sort: 'password:asc' }, 'sort'],
    ['sort=name', { sort: 'name' }, 'sort'],
    ['page_size=101', { page_size: 101 }, 'page_size'],
    ['page_size=0', { page_size: 0 }, 'page_size'],
    ['page_size=ten', { page_size: 'ten' }, 'page_size'],
    ['role=owner', { role: 'owner' }, 'role'],
    ['status=deleted', { status: 'deleted' }, 'status'],
    ['include_total=maybe', { include_total: 'maybe' }, 'include_total'],
  ])('%s: 400 VALIDATION_FAILED naming the field', async (_, params, field) => {
    const { status, body } = await list(acme.users.admin.auth, params)
    expect(status).toBe(400)
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.errors!.map((e) => e.field)).toEqual([field])
  })

  test('page_size=100 is allowed', async () => {
    expect((await list(acme.users.admin.auth, { page_size: 100 })).status).toBe(200)
  })

  test('a page token that is not one: 400 INVALID_PAGE_TOKEN', async () => {
    const { status, body } = await list(acme.users.admin.auth, { page_token: 'not-a-token' })
    expect([status, body.code]).toEqual([400, 'INVALID_PAGE_TOKEN'])
  })

  test.each(['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const)('%s can list (user:read)', async (role) => {
    expect((await list(acme.users[role].auth)).status).toBe(200)
  })

  test('an unauthenticated call: 401', async () => {
    const response = await app.request('/api/v1/users')
    expect(response.status).toBe(401)
    expect((await json<ErrorBody>(response)).code).toBe('UNAUTHENTICATED')
  })
})

describe('names in any script: without regard to case or accents', async () => {
  const intl = await seedOrganization(app, 'intl')
  for (const [name, email] of [
    ['Émile', 'emile@intl.test'],
    ['émilie', 'emilie@intl.test'],
    ['ábel', 'abel@intl.test'],
    ['Zed', 'zed@intl.test'],
    ['Ørjan', 'orjan@intl.test'],
  ] as const) {
    await createUser(intl, name, email, 'viewer')
  }
  const ofCreated = (items: ListItem[]) => names(items).filter((n) => ['Émile', 'émilie', 'ábel', 'Zed', 'Ørjan'].includes(n))

  test.each([['é'], ['É'], ['e'], ['émi'], ['EMIL']])('q=%s finds Émile and émilie', async (q) => {
    expect(ofCreated((await ok(intl.users.admin.auth, { q, sort: 'name:asc' })).users)).toEqual(['Émile', 'émilie'])
  })

  test('name:asc is alphabetical: ábel, Émile, émilie, Zed', async () => {
    // Ø is a letter of its own (no combining mark to drop), so it sorts after z, as in Danish and Norwegian.
    expect(ofCreated((await ok(intl.users.admin.auth, { sort: 'name:asc', page_size: 100 })).users)).toEqual([
      'ábel',
      'Émile',
      'émilie',
      'Zed',
      'Ørjan',
    ])
  })

  test('a rename refolds the name', async () => {
    const id = await createUser(intl, 'Björn', 'renamed@intl.test', 'viewer')
    expect(names((await ok(intl.users.admin.auth, { q: 'bjo' })).users)).toEqual(['Björn'])
    await app.request(`/api/v1/users/${id}`, {
      method: 'PATCH',
      headers: { ...intl.users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Åsa' }),
    })
    expect(names((await ok(intl.users.admin.auth, { q: 'bjo' })).users)).toEqual([])
    expect(names((await ok(intl.users.admin.auth, { q: 'asa' })).users)).toEqual(['Åsa'])
  })
})
