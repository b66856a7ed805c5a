// GET /api/v1/accounts: filters (owner, tag, q on name and domain, creation window), sorts, keyset pages
// with their tokens bound to the query, include_total, and only the caller's organization.
import { beforeAll, describe, expect, test } from 'bun:test'
import { type Account, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, page } = crmClient(app, users.supervisor.auth)
const names = (items: Account[]) => items.map((a) => a.name)

const made: Record<string, Account> = {}
let midpoint = ''
beforeAll(async () => {
  const specs: Array<[string, Record<string, unknown>]> = [
    ['banana Traders', { domain: 'banana.com', owner_id: users.agent.user.id, tags: ['fruit'] }],
    ['Apple Orchards', { domain: 'apple-orchards.net', tags: ['Fruit', 'big'] }],
    ['Émile Industries', { domain: 'emile.fr', owner_id: users.supervisor.user.id }],
    ['cherry & Co', { domain: 'example.org' }],
    ['100% Natural', {}],
  ]
  for (const [index, [name, body]] of specs.entries()) {
    if (index === 3) midpoint = new Date(app.clock.now()).toISOString()
    app.clock.advance(1000)
    made[name] = await createAccount({ name, ...body })
  }
  // Another organization's account with a matching name and domain is never listed here.
  await createAccount({ name: 'Apple Elsewhere', domain: 'apple.com' }, globex.users.admin.auth)
})

describe('GET /api/v1/accounts', () => {
  test('newest first by default; every role with account:read lists them', async () => {
    const expected = ['100% Natural', 'cherry & Co', 'Émile Industries', 'Apple Orchards', 'banana Traders']
    for (const role of ['viewer', 'agent', 'super_admin'] as const)
      expect(names((await page<Account>('/api/v1/accounts', 'accounts', users[role].auth)).items)).toEqual(expected)
  })

  const cases: Array<[string, () => string, string[]]> = [
    ['owner_id', () => `owner_id=${users.agent.user.id}`, ['banana Traders']],
    ['owner_id=none', () => 'owner_id=none', ['100% Natural', 'cherry & Co', 'Apple Orchards']],
    ['tag, in any case', () => 'tag=FRUIT', ['Apple Orchards', 'banana Traders']],
    ['q: a prefix of the name, case ignored', () => 'q=APP', ['Apple Orchards']],
    ['q: a prefix of the name, accents ignored', () => 'q=emi', ['Émile Industries']],
    ['q: a prefix of the domain', () => 'q=exam', ['cherry & Co']],
    ['q: not the middle of a name', () => 'q=traders', []],
    ['q: % is a character, not a wildcard', () => `q=${encodeURIComponent('100%')}`, ['100% Natural']],
    ['q: _ is a character, not a wildcard', () => 'q=b_nana', []],
    ['created_after (exclusive)', () => `created_after=${midpoint}`, ['100% Natural', 'cherry & Co']],
    // Émile Industries was created exactly at the midpoint: neither bound takes it.
    ['created_before (exclusive)', () => `created_before=${midpoint}`, ['Apple Orchards', 'banana Traders']],
    ['tag and owner together', () => `tag=fruit&owner_id=none`, ['Apple Orchards']],
  ]
  for (const [what, query, expected] of cases)
    test(what, async () => {
      expect(names((await page<Account>(`/api/v1/accounts?${query()}`, 'accounts')).items)).toEqual(expected)
    })

  test('sort by name: alphabetical for people (case and accents ignored), both ways', async () => {
    const ascending = ['100% Natural', 'Apple Orchards', 'banana Traders', 'cherry & Co', 'Émile Industries']
    expect(names((await page<Account>('/api/v1/accounts?sort=name:asc', 'accounts')).items)).toEqual(ascending)
    expect(names((await page<Account>('/api/v1/accounts?sort=name:desc', 'accounts')).items)).toEqual([...ascending].reverse())
  })

  test('sort by updated_at: a changed account moves to the front', async () => {
    app.clock.advance(1000)
    expect((await send('PATCH', `/api/v1/accounts/${made['Apple Orchards']!.id}`, { industry: 'Farming' })).status).toBe(200)
    expect(names((await page<Account>('/api/v1/accounts?sort=updated_at:desc&page_size=2', 'accounts')).items)).toEqual([
      'Apple Orchards',
      '100% Natural',
    ])
  })

  test('pages of 2 walk the whole list once, with total_count when asked', async () => {
    const seen: string[] = []
    let path = '/api/v1/accounts?sort=name:asc&page_size=2&include_total=true'
    for (let pages = 0; pages < 10; pages++) {
      const { items, next, total } = await page<Account>(path, 'accounts')
      expect(total).toBe(5)
      seen.push(...names(items))
      if (next === '') break
      path = `/api/v1/accounts?sort=name:asc&page_size=2&include_total=true&page_token=${next}`
    }
    expect(seen).toEqual(['100% Natural', 'Apple Orchards', 'banana Traders', 'cherry & Co', 'Émile Industries'])
    expect((await page<Account>('/api/v1/accounts?q=zzz&include_total=true', 'accounts')).total).toBe(0)
    expect((await page<Account>('/api/v1/accounts', 'accounts')).total).toBeUndefined()
  })

  test('a page token under other filters or another sort: 400 INVALID_PAGE_TOKEN', async () => {
    const { next } = await page<Account>('/api/v1/accounts?page_size=2&tag=fruit&page_size=1', 'accounts')
    expect(next).not.toBe('')
    await expectError(await send('GET', `/api/v1/accounts?page_size=1&page_token=${next}`), 400, 'INVALID_PAGE_TOKEN')
    await expectError(
      await send('GET', `/api/v1/accounts?page_size=1&tag=fruit&sort=name:asc&page_token=${next}`),
      400,
      'INVALID_PAGE_TOKEN',
    )
    expect((await send('GET', `/api/v1/accounts?page_size=1&tag=fruit&page_token=${next}`)).status).toBe(200)
  })

  const refused: Array<[string, string]> = [
    ['created_after=yesterday', 'created_after'],
    ['created_before=2026-02-30T00:00:00Z', 'created_before'],
    ['sort=domain:asc', 'sort'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['q=', 'q'],
  ]
  for (const [query, field] of refused)
    test(`?${query}: 400 naming ${field}`, async () => {
      await expectError(await send('GET', `/api/v1/accounts?${query}`), 400, 'VALIDATION_FAILED', field)
    })

  test('another organization lists only its own', async () => {
    expect(names((await page<Account>('/api/v1/accounts', 'accounts', globex.users.viewer.auth)).items)).toEqual(['Apple Elsewhere'])
  })
})
