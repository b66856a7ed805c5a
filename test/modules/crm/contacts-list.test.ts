// GET /api/v1/contacts: the search (`q` over name, e-mail, phone digits and external id), the filters
// (account, owner, type, tag, blocked, creation window), the sorts (last activity included), keyset pages
// bound to their query, and what is never listed (merged contacts, another organization's).
import { beforeAll, describe, expect, test } from 'bun:test'
import { type Account, type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, page } = crmClient(app, users.supervisor.auth)
const names = (items: Contact[]) => items.map((c) => c.name)
const list = async (query: string) => names((await page<Contact>(`/api/v1/contacts?${query}`, 'contacts')).items)

let account: Account
let midpoint = ''
beforeAll(async () => {
  account = await createAccount({ name: 'Example Corp' })
  const specs: Array<[string, Record<string, unknown>]> = [
    ['Zoë Adams', { email: 'zoe@example.com', phone: '+44 20 7946 0958', account_id: account.id, tags: ['vip'] }],
    ['anna Berg', { email: 'anna.berg@mail.test', phone: '+1 415 555 0123', external_id: 'SF-001', owner_id: users.agent.user.id }],
    ['Émile Roux', { email: 'emile@example.fr', external_id: 'sf-002', contact_type: 'customer', blocked: true }],
    ['Bob Stone', { phone: '+44 161 496 0000', contact_type: 'lead', account_id: account.id, tags: ['VIP', 'late'] }],
    ['carl_95%', { external_id: 'SF-0010' }],
  ]
  for (const [index, [name, body]] of specs.entries()) {
    if (index === 3) midpoint = new Date(app.clock.now()).toISOString()
    app.clock.advance(1000)
    await createContact({ name, ...body })
  }
  // Neither a contact merged away nor another organization's is ever listed.
  const survivor = (await page<Contact>('/api/v1/contacts?q=anna', 'contacts')).items[0]!
  const twin = await createContact({ name: 'Anna Berg (old)', email: 'anna.old@mail.test' })
  expect((await send('POST', `/api/v1/contacts/${survivor.id}/merge`, { other_id: twin.id })).status).toBe(200)
  await createContact({ name: 'Zoë Elsewhere', email: 'zoe@example.com' }, globex.users.admin.auth)
})

describe('GET /api/v1/contacts', () => {
  test('newest first by default, for every role with contact:read; merged contacts are not listed', async () => {
    const expected = ['carl_95%', 'Bob Stone', 'Émile Roux', 'anna Berg', 'Zoë Adams']
    for (const role of ['viewer', 'agent', 'admin'] as const)
      expect(names((await page<Contact>('/api/v1/contacts', 'contacts', users[role].auth)).items)).toEqual(expected)
  })

  const search: Array<[string, string, string[]]> = [
    ['a prefix of the name, case ignored', 'q=ANN', ['anna Berg']],
    ['a prefix of the name, accents ignored either way', `q=${encodeURIComponent('zoe')}`, ['Zoë Adams']],
    ['a prefix of the name written with its accent', `q=${encodeURIComponent('Émi')}`, ['Émile Roux']],
    ['a prefix of the e-mail, case ignored', 'q=Anna.B', ['anna Berg']],
    ['the whole e-mail', 'q=emile@example.fr', ['Émile Roux']],
    ['a phone prefix with its +', `q=${encodeURIComponent('+4420')}`, ['Zoë Adams']],
    ['a phone prefix as digits', 'q=44', ['Bob Stone', 'Zoë Adams']],
    ['a phone prefix with spaces', `q=${encodeURIComponent('+1 415')}`, ['anna Berg']],
    ['an external id: itself and the longer ids it begins', 'q=SF-001', ['carl_95%', 'anna Berg']],
    ['an external id prefix keeps its case', 'q=SF-', ['carl_95%', 'anna Berg']],
    ['the other case of an external id', 'q=sf-', ['Émile Roux']],
    ['% and _ are characters, not wildcards', `q=${encodeURIComponent('carl_95%')}`, ['carl_95%']],
    ['a wildcard matches nothing', `q=${encodeURIComponent('%')}`, []],
    ['not the middle of a name', 'q=stone', []],
  ]
  for (const [what, query, expected] of search)
    test(`q: ${what}`, async () => {
      expect(await list(query)).toEqual(expected)
    })

  const filters: Array<[string, () => string, string[]]> = [
    ['account_id', () => `account_id=${account.id}`, ['Bob Stone', 'Zoë Adams']],
    ['account_id=none', () => 'account_id=none', ['carl_95%', 'Émile Roux', 'anna Berg']],
    ['owner_id', () => `owner_id=${users.agent.user.id}`, ['anna Berg']],
    ['owner_id=none', () => 'owner_id=none', ['carl_95%', 'Bob Stone', 'Émile Roux', 'Zoë Adams']],
    ['contact_type', () => 'contact_type=lead', ['Bob Stone']],
    ['tag, in any case', () => 'tag=Vip', ['Bob Stone', 'Zoë Adams']],
    ['blocked=true', () => 'blocked=true', ['Émile Roux']],
    ['blocked=false', () => 'blocked=false', ['carl_95%', 'Bob Stone', 'anna Berg', 'Zoë Adams']],
    ['created_after (exclusive)', () => `created_after=${midpoint}`, ['carl_95%', 'Bob Stone']],
    ['created_before (exclusive)', () => `created_before=${midpoint}`, ['anna Berg', 'Zoë Adams']],
    ['q with a filter', () => `q=44&tag=late`, ['Bob Stone']],
  ]
  for (const [what, query, expected] of filters)
    test(what, async () => {
      expect(await list(query())).toEqual(expected)
    })

  test('sort by name: alphabetical for people, both ways', async () => {
    const ascending = ['anna Berg', 'Bob Stone', 'carl_95%', 'Émile Roux', 'Zoë Adams']
    expect(await list('sort=name:asc')).toEqual(ascending)
    expect(await list('sort=name:desc')).toEqual([...ascending].reverse())
  })

  test('sort by last_activity_at: contacts with recent tickets first, those without any last', async () => {
    for (const [name, email] of [
      ['Émile Roux', 'emile@example.fr'],
      ['Zoë Adams', 'zoe@example.com'],
    ]) {
      app.clock.advance(1000)
      const response = await send('POST', '/api/v1/tickets', { subject: 'Help', requester: { name, email } })
      expect(response.status).toBe(201)
    }
    const descending = await list('sort=last_activity_at:desc')
    expect(descending.slice(0, 2)).toEqual(['Zoë Adams', 'Émile Roux'])
    expect(new Set(descending.slice(2))).toEqual(new Set(['anna Berg', 'Bob Stone', 'carl_95%']))
    expect((await list('sort=last_activity_at:asc')).slice(3)).toEqual(['Émile Roux', 'Zoë Adams'])
    // And pages of one walk it without losing or repeating a contact among those of equal (no) activity.
    const seen: string[] = []
    let query = 'sort=last_activity_at:asc&page_size=1'
    for (let pages = 0; pages < 10; pages++) {
      const { items, next } = await page<Contact>(`/api/v1/contacts?${query}`, 'contacts')
      seen.push(...names(items))
      if (next === '') break
      query = `sort=last_activity_at:asc&page_size=1&page_token=${next}`
    }
    expect(seen).toHaveLength(5)
    expect(seen.slice(3)).toEqual(['Émile Roux', 'Zoë Adams'])
    expect(new Set(seen).size).toBe(5)
  })

  test('pages of 2 walk the whole search once, with total_count when asked', async () => {
    const seen: string[] = []
    let query = 'q=44&sort=created_at:asc&page_size=1&include_total=true'
    for (let pages = 0; pages < 5; pages++) {
      const { items, next, total } = await page<Contact>(`/api/v1/contacts?${query}`, 'contacts')
      expect(total).toBe(2)
      seen.push(...names(items))
      if (next === '') break
      query = `q=44&sort=created_at:asc&page_size=1&include_total=true&page_token=${next}`
    }
    expect(seen).toEqual(['Zoë Adams', 'Bob Stone'])
  })

  test('a page token under another search: 400 INVALID_PAGE_TOKEN', async () => {
    const { next } = await page<Contact>('/api/v1/contacts?q=44&page_size=1', 'contacts')
    await expectError(await send('GET', `/api/v1/contacts?q=45&page_size=1&page_token=${next}`), 400, 'INVALID_PAGE_TOKEN')
  })

  const refused: Array<[string, string]> = [
    ['blocked=maybe', 'blocked'],
    ['contact_type=prospect', 'contact_type'],
    ['created_after=2026-13-01T00:00:00Z', 'created_after'],
    ['sort=email:asc', 'sort'],
    ['page_size=500', 'page_size'],
  ]
  for (const [query, field] of refused)
    test(`?${query}: 400 naming ${field}`, async () => {
      await expectError(await send('GET', `/api/v1/contacts?${query}`), 400, 'VALIDATION_FAILED', field)
    })

  test('another organization lists only its own', async () => {
    expect(names((await page<Contact>('/api/v1/contacts', 'contacts', globex.users.viewer.auth)).items)).toEqual(['Zoë Elsewhere'])
  })
})
