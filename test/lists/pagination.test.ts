// The list mechanism, on the tickets list: the spec's four rules each as a test, a property test over
// random filters, sorts and page sizes, every bad parameter, rows created while paging, and the query
// plans (an index walk, never a sort, so page 5,000 costs what page 1 costs).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TICKET_LIST } from '../../src/modules/tickets/store.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { indexReadsOf, planNodes, seqScansOf } from '../helpers/query-plan.ts'
import { seedOrganization } from '../helpers/seed.ts'

// Long-lived access tokens: the page-token expiry test moves the clock by an hour.
const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400' })
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const auth = { ...acme.users.supervisor.auth, 'content-type': 'application/json' }

interface Ticket {
  id: string
  number: number
  status: string
  priority: string
  assignee_id: string | null
  tags: string[]
  created_at: string
  updated_at: string
}
type Page = { tickets: Ticket[]; next_page_token: string; total_count?: number }

const list = async (query: string, headers: Record<string, string> = auth) => app.request(`/api/v1/tickets?${query}`, { headers })
const page = async (query: string) => {
  const response = await list(query)
  expect(response.status, query).toBe(200)
  return json<Page>(response)
}
/** Follows next_page_token to the end; `pageSize` may vary per page. */
async function walk(query: string, pageSize: (i: number) => number = () => 7): Promise<Ticket[]> {
  const seen: Ticket[] = []
  let token = ''
  for (let i = 0; ; i++) {
    const body = await page(`${query}&page_size=${pageSize(i)}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`)
    seen.push(...body.tickets)
    if (body.next_page_token === '') return seen
    token = body.next_page_token
    expect(i).toBeLessThan(1000)
  }
}

// A deterministic pseudo-random sequence, so a failure reproduces.
let seed = 42
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!

const STATUSES = ['new', 'open', 'pending', 'on_hold'] as const
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
const TAGS = ['billing', 'bug', 'vip']
const assignees = [null, acme.users.agent.user.id, acme.users.supervisor.user.id]

// 240 tickets: random fields; the clock advances 0–2 s between creations, so created_at ties happen.
const created: Ticket[] = []
for (let i = 0; i < 240; i++) {
  if (random() < 0.7) app.clock.advance(Math.floor(random() * 2000))
  const body = {
    subject: `Ticket ${i}`,
    status: pick(STATUSES),
    priority: pick(PRIORITIES),
    assignee_id: pick(assignees),
    tags: TAGS.filter(() => random() < 0.3),
  }
  const response = await app.request('/api/v1/tickets', { method: 'POST', headers: auth, body: JSON.stringify(body) })
  created.push(await json<Ticket>(response))
}
// A few in the other organization, which no acme list may ever show.
for (let i = 0; i < 5; i++) {
  await app.request('/api/v1/tickets', {
    method: 'POST',
    headers: { ...globex.users.admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ subject: `Globex ${i}` }),
  })
}

const RANK: Record<string, number> = { low: 0, normal: 1, high: 2, urgent: 3 }
const sortKey: Record<string, (t: Ticket) => number> = {
  created_at: (t) => Date.parse(t.created_at),
  updated_at: (t) => Date.parse(t.updated_at),
  priority: (t) => RANK[t.priority]!,
  number: (t) => t.number,
}
/** The model: what a list must return, computed from what the test created, not by the server. */
function expected(filters: { status?: string; priority?: string; assignee_id?: string; tag?: string }, sort = 'created_at:desc'): string[] {
  const [field, direction] = sort.split(':') as [string, 'asc' | 'desc']
  const sign = direction === 'asc' ? 1 : -1
  return created
    .filter(
      (t) =>
        (filters.status === undefined || t.status === filters.status) &&
        (filters.priority === undefined || t.priority === filters.priority) &&
        (filters.assignee_id === undefined ||
          (filters.assignee_id === 'none' ? t.assignee_id === null : t.assignee_id === filters.assignee_id)) &&
        (filters.tag === undefined || t.tags.includes(filters.tag)),
    )
    .sort((a, b) => sign * (sortKey[field]!(a) - sortKey[field]!(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    .map((t) => t.id)
}
const qs = (filters: Record<string, string | undefined>) =>
  Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&')

describe("the spec's four rules", () => {
  test('1. filters are applied before pagination: every page is full of matching items until the last', async () => {
    const open = expected({ status: 'open' })
    expect(open.length).toBeGreaterThan(20)
    const sizes: number[] = []
    let token = ''
    const ids: string[] = []
    for (;;) {
      const body = await page(`status=open&page_size=9${token ? `&page_token=${token}` : ''}`)
      expect(body.tickets.every((t) => t.status === 'open')).toBe(true)
      sizes.push(body.tickets.length)
      ids.push(...body.tickets.map((t) => t.id))
      if (!body.next_page_token) break
      token = body.next_page_token
    }
    expect(ids).toEqual(open)
    expect(sizes.slice(0, -1).every((n) => n === 9)).toBe(true)
  })

  test('2. filters and sort stay the same while paging: a token replayed with others is refused', async () => {
    const first = await page('status=open&sort=priority:desc&page_size=5')
    const token = encodeURIComponent(first.next_page_token)
    for (const changed of [
      'status=pending&sort=priority:desc',
      'status=open&sort=priority:asc',
      'status=open&sort=number:desc',
      'sort=priority:desc',
      'status=open&sort=priority:desc&tag=vip',
    ]) {
      const response = await list(`${changed}&page_size=5&page_token=${token}`)
      expect(response.status, changed).toBe(400)
      expect(await json(response)).toMatchObject({
        code: 'INVALID_PAGE_TOKEN',
        message: 'The page token was made for other filters or another sort; keep them unchanged while paging',
      })
    }
    // Same filters in another order, and another page size, are the same query.
    expect((await list(`sort=priority:desc&page_size=7&status=open&page_token=${token}`)).status).toBe(200)
  })

  test('3. page tokens are short-lived: after PAGE_TOKEN_TTL (1 h) they are refused', async () => {
    const { next_page_token } = await page('page_size=5')
    app.clock.advance(3_600_000 - 1000)
    expect((await list(`page_size=5&page_token=${encodeURIComponent(next_page_token)}`)).status).toBe(200)
    app.clock.advance(1000)
    const response = await list(`page_size=5&page_token=${encodeURIComponent(next_page_token)}`)
    expect(response.status).toBe(400)
    expect(await json(response)).toMatchObject({
      code: 'INVALID_PAGE_TOKEN',
      message: 'The page token has expired; start again from the first page',
    })
  })

  test('4. an empty next_page_token means the last page, and only the last', async () => {
    const all = await walk('sort=number:asc', () => 50)
    expect(all.length).toBe(240)
    const exact = await page('page_size=100&status=on_hold')
    expect(exact.next_page_token).toBe(expected({ status: 'on_hold' }).length > 100 ? expect.any(String) : '')
    // A page that ends exactly at the last item still says so at once (no empty page after it).
    const count = expected({ priority: 'urgent' }).length
    const whole = await page(`priority=urgent&page_size=${count}`)
    expect(whole.tickets.length).toBe(count)
    expect(whole.next_page_token).toBe('')
  })
})

describe('total_count', () => {
  test('counts the filtered set, not all records, and only when asked', async () => {
    const body = await page('assignee_id=none&page_size=3&include_total=true')
    expect(body.total_count).toBe(expected({ assignee_id: 'none' }).length)
    expect(body.total_count).toBeLessThan(240)
    expect('total_count' in (await page('assignee_id=none&page_size=3'))).toBe(false)
    expect((await page('page_size=1&include_total=true')).total_count).toBe(240)
  })
})

describe('property: random filters, sorts and page sizes give exactly the filtered set, in order, once each', () => {
  for (let trial = 0; trial < 25; trial++) {
    const filters = {
      status: random() < 0.4 ? pick(STATUSES) : undefined,
      priority: random() < 0.3 ? pick(PRIORITIES) : undefined,
      assignee_id: random() < 0.3 ? (pick(assignees) ?? 'none') : undefined,
      tag: random() < 0.3 ? pick(TAGS) : undefined,
    }
    const sort = `${pick(['created_at', 'updated_at', 'priority', 'number'])}:${pick(['asc', 'desc'])}`
    const sizes = Array.from({ length: 400 }, () => 1 + Math.floor(random() * 30))
    test(`trial ${trial}: ${qs(filters) || 'no filter'} sort=${sort}`, async () => {
      const got = await walk(`${qs(filters)}&sort=${sort}`, (i) => sizes[i]!)
      const ids = got.map((t) => t.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toEqual(expected(filters, sort))
    })
  }
})

describe('rows created while paging', () => {
  test('newest first: new rows do not appear, nothing repeats, nothing is skipped', async () => {
    const before = expected({ tag: 'bug' }, 'created_at:desc')
    const first = await page('tag=bug&page_size=10')
    for (let i = 0; i < 8; i++) {
      app.clock.advance(10)
      await app.request('/api/v1/tickets', { method: 'POST', headers: auth, body: JSON.stringify({ subject: `late ${i}`, tags: ['bug'] }) })
    }
    const rest = await walk(`tag=bug&page_token=${encodeURIComponent(first.next_page_token)}`)
    expect([...first.tickets, ...rest].map((t) => t.id)).toEqual(before)
  })

  test('oldest first: every row that existed appears once, in order, and the new ones follow', async () => {
    const before = expected({ priority: 'low' }, 'created_at:asc')
    const first = await page('priority=low&sort=created_at:asc&page_size=10')
    const late: string[] = []
    for (let i = 0; i < 5; i++) {
      app.clock.advance(10)
      const response = await app.request('/api/v1/tickets', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ subject: `late low ${i}`, priority: 'low' }),
      })
      late.push((await json<Ticket>(response)).id)
    }
    const rest = await walk(`priority=low&sort=created_at:asc&page_token=${encodeURIComponent(first.next_page_token)}`)
    expect([...first.tickets, ...rest].map((t) => t.id)).toEqual([...before, ...late])
  })
})

describe('bad parameters', () => {
  const cases: [string, string][] = [
    ['page_size=0', 'page_size'],
    ['page_size=-1', 'page_size'],
    ['page_size=1.5', 'page_size'],
    ['page_size=ten', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=', 'page_size'],
    ['sort=created_at', 'sort'],
    ['sort=created_at:up', 'sort'],
    ['sort=subject:asc', 'sort'],
    ['sort=CREATED_AT:desc', 'sort'],
    ['sort=', 'sort'],
    ['include_total=maybe', 'include_total'],
    ['status=archived', 'status'],
    ['priority=critical', 'priority'],
    ['created_after=yesterday', 'created_after'],
  ]
  for (const [query, field] of cases) {
    test(`${query} -> 400 VALIDATION_FAILED naming ${field}`, async () => {
      const response = await list(query)
      expect(response.status).toBe(400)
      const body = await json<{ code: string; errors: { field: string }[] }>(response)
      expect(body.code).toBe('VALIDATION_FAILED')
      expect(body.errors.map((e) => e.field)).toEqual([field])
    })
  }

  test('page tokens that cannot be used: tampered, garbage, another organization, another list -> 400 INVALID_PAGE_TOKEN', async () => {
    const { next_page_token: token } = await page('page_size=5')
    const [body, mac] = token.split('.') as [string, string]
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)
    const globexToken = (await json<Page>(await list('page_size=1', globex.users.admin.auth))).next_page_token
    const usersToken = (
      await json<{ next_page_token: string }>(await app.request('/api/v1/users?page_size=1', { headers: acme.users.admin.auth }))
    ).next_page_token
    const tokens: [string, string][] = [
      [`${flip(body, 5)}.${mac}`, 'The page token was altered or was not issued by this server'],
      [`${body}.${flip(mac, 3)}`, 'The page token was altered or was not issued by this server'],
      ['not-a-token', 'The page token is malformed'],
      ['a.b.c', 'The page token is malformed'],
      [globexToken, 'The page token belongs to another organization'],
      [usersToken, 'The page token was made for other filters or another sort; keep them unchanged while paging'],
    ]
    for (const [bad, message] of tokens) {
      const response = await list(`page_size=5&page_token=${encodeURIComponent(bad)}`)
      expect(response.status, bad).toBe(400)
      expect(await json(response)).toMatchObject({ code: 'INVALID_PAGE_TOKEN', message })
    }
  })
})

describe('cost does not grow with depth', () => {
  // PostgreSQL plans by its statistics, kept fresh by autovacuum: a tiny table is rightly read whole and
  // sorted, so its promise is checked on a big organization, analysed, with a keyset half way down.
  const BULK = 20_000
  const onPostgres = TEST_ENGINE === 'postgres'
  beforeAll(async () => {
    if (!onPostgres) return
    const raw = app.context.db.raw
    await raw.run(
      "INSERT INTO organizations (id, name, plan, settings, created_at, updated_at) VALUES ('org_bulk', 'Bulk', 'free', '{}', 0, 0)",
    )
    await raw.run(
      "INSERT INTO tickets (id, organization_id, number, subject, description, status, priority, channel, tags, custom_fields, created_at, updated_at) SELECT 'tkt_' || lpad(i::text, 8, '0'), 'org_bulk', i, 'Bulk', '', 'open', i % 4, 'api', '[]', '{}', i, i FROM generate_series(1, ?) AS i",
      [BULK],
    )
    await app.context.db.admin.optimize()
  }, 60_000)
  const middle = (field: string): [number, string] => (field === 'priority' ? [1, 'tkt_00010000'] : [BULK / 2, 'tkt_00010000'])

  for (const field of TICKET_LIST.sorts) {
    for (const direction of ['asc', 'desc'] as const) {
      test(`sort ${field}:${direction} walks an index, with no sort step, also deep in the list`, async () => {
        if (onPostgres) {
          const query = TICKET_LIST.statement(`${field}:${direction}`, 'org_bulk', [], middle(field), 21)
          const nodes = await planNodes(app.context.db, query.sql, query.params)
          expect(indexReadsOf(nodes, 'tickets').map((n) => n['Index Name'])).toEqual([expect.stringMatching(/^tickets_org_/)])
          expect(nodes.filter((n) => n['Node Type'].includes('Sort')).map((n) => n['Node Type'])).toEqual([])
          expect(seqScansOf(nodes, 'tickets')).toEqual([])
          expect(query.sql).not.toMatch(/OFFSET/i)
          return
        }
        const query = TICKET_LIST.statement(`${field}:${direction}`, 'org_x', [], [5, 'tkt_Z'], 21)
        const plan = (await app.context.db.raw.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params))
          .map((r) => r.detail)
          .join(' | ')
        expect(plan).toMatch(/SEARCH tickets USING (COVERING )?INDEX tickets_org_/)
        expect(plan).not.toContain('TEMP B-TREE')
        expect(query.sql).not.toMatch(/OFFSET/i)
      })
    }
  }
})
