// GET /api/v1/accounts/export: the CSV a client downloads (headers, BOM, columns, values as the JSON API shows them, formula cells escaped), its filters and sorts, tenancy and permissions.
import { beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { json } from '../../helpers/app.ts'
import { type Account, type Auth, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, page } = crmClient(app, users.supervisor.auth)

const COLUMNS = ['id', 'name', 'domain', 'industry', 'size', 'owner_id', 'owner_email', 'tags', 'custom_fields', 'created_at', 'updated_at']

type Row = Record<string, string>

async function download(query = '', auth: Auth = users.supervisor.auth) {
  const response = await app.request(`/api/v1/accounts/export${query === '' ? '' : `?${query}`}`, { headers: auth })
  const bytes = new Uint8Array(await response.clone().arrayBuffer())
  expect(response.status, new TextDecoder().decode(bytes).slice(0, 500)).toBe(200)
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  return { response, bytes, text, rows: parse(text, { bom: true, columns: true }) as Row[] }
}

const namesOf = (rows: Row[]) => rows.map((r) => r.name)

async function listedIds(query: string, auth: Auth = users.supervisor.auth): Promise<string[]> {
  const ids: string[] = []
  let token = ''
  for (;;) {
    const { items, next } = await page<Account>(
      `/api/v1/accounts?${query}&page_size=100${token === '' ? '' : `&page_token=${token}`}`,
      'accounts',
      auth,
    )
    ids.push(...items.map((a) => a.id))
    if (next === '') return ids
    token = next
  }
}

const ESCAPED: Record<string, string> = { '=HYPERLINK("http://evil.test")': '\'=HYPERLINK("http://evil.test")' }
const csvName = (name: string) => ESCAPED[name] ?? name

const made: Record<string, Account> = {}
const createdAt: Record<string, string> = {}
const NAMES = ['banana Traders', 'Apple Orchards, "the big one"', 'Émile Industries', '=HYPERLINK("http://evil.test")', '-42']

beforeAll(async () => {
  const specs: Array<[string, Record<string, unknown>]> = [
    [
      'banana Traders',
      {
        domain: 'https://www.Banana.com/about',
        industry: 'Fruit import',
        size: '51-200',
        owner_id: users.agent.user.id,
        tags: ['fruit', 'Big'],
        custom_fields: { region: 'emea', seats: 40, active: true },
      },
    ],
    ['Apple Orchards, "the big one"', { domain: 'apple-orchards.net', tags: ['fruit'], size: '5000+' }],
    ['Émile Industries', { domain: 'emile.fr', owner_id: users.supervisor.user.id, industry: '@home' }],
    ['=HYPERLINK("http://evil.test")', {}],
    ['-42', { industry: '+1 555 000' }],
  ]
  for (const [name, body] of specs) {
    app.clock.advance(1000)
    made[name] = await createAccount({ name, ...body })
    createdAt[name] = made[name]!.created_at
  }
  // A later change: updated_at moves, created_at stays.
  app.clock.advance(5000)
  expect((await send('PATCH', `/api/v1/accounts/${made['-42']!.id}`, { size: '1-10' })).status).toBe(200)
  // A deleted account is not exported; another organization's never is.
  const gone = await createAccount({ name: 'Gone Inc' })
  expect((await send('DELETE', `/api/v1/accounts/${gone.id}`)).status).toBe(204)
  await createAccount({ name: 'Banana Elsewhere', domain: 'banana.com' }, globex.users.admin.auth)
})

describe('GET /api/v1/accounts/export: the file', () => {
  test('text/csv in UTF-8, an attachment named after the fake clock’s day, never cached', async () => {
    const { response } = await download()
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="accounts-2026-01-01.csv"')
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('a UTF-8 BOM, CRLF line ends, a header row of exactly the promised columns', async () => {
    const { bytes, text } = await download()
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(text.endsWith('\r\n')).toBe(true)
    expect(/[^\r]\n/.test(text)).toBe(false)
    expect(text.slice(1, text.indexOf('\r\n'))).toBe(COLUMNS.join(','))
    const records = parse(text, { bom: true }) as string[][]
    expect(records[0]).toEqual(COLUMNS)
    expect(records.slice(1).every((r) => r.length === COLUMNS.length)).toBe(true)
  })

  test('one row per account, oldest first; deleted and other organizations’ accounts absent', async () => {
    const { rows } = await download()
    expect(namesOf(rows)).toEqual(NAMES.map(csvName))
    expect(rows.map((r) => r.id)).toEqual(await listedIds('sort=created_at:asc'))
  })

  test('every cell is what GET /api/v1/accounts/{id} shows, with the owner’s e-mail', async () => {
    const { rows } = await download()
    const emails: Record<string, string> = Object.fromEntries(Object.values(users).map((u) => [u.user.id, u.user.email]))
    for (const row of rows) {
      const response = await send('GET', `/api/v1/accounts/${row.id}`)
      expect(response.status).toBe(200)
      const account = await json<Account>(response)
      expect(row).toEqual({
        id: account.id,
        name: csvName(account.name),
        domain: account.domain ?? '',
        industry: account.industry === '@home' ? "'@home" : (account.industry ?? ''),
        size: account.size ?? '',
        owner_id: account.owner_id ?? '',
        owner_email: account.owner_id === null ? '' : emails[account.owner_id]!,
        tags: account.tags.join(' '),
        custom_fields: Object.keys(account.custom_fields).length === 0 ? '' : row.custom_fields!,
        created_at: account.created_at,
        updated_at: account.updated_at,
      })
      if (row.custom_fields !== '') expect(JSON.parse(row.custom_fields!)).toEqual(account.custom_fields)
    }
  })

  test('banana’s row written out; formula cells escaped, a phone-like and a negative number not', async () => {
    const { rows, text } = await download()
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]))
    expect(byName['banana Traders']).toMatchObject({
      domain: 'banana.com',
      industry: 'Fruit import',
      size: '51-200',
      owner_id: users.agent.user.id,
      owner_email: 'agent@acme.test',
      tags: 'fruit big',
      created_at: createdAt['banana Traders'],
    })
    expect(JSON.parse(byName['banana Traders']!.custom_fields!)).toEqual({ region: 'emea', seats: 40, active: true })
    expect(byName['\'=HYPERLINK("http://evil.test")']).toBeDefined()
    expect(byName['Émile Industries']!.industry).toBe("'@home")
    expect(byName['-42']).toMatchObject({ industry: '+1 555 000', size: '1-10', custom_fields: '', tags: '', owner_email: '' })
    expect(Date.parse(byName['-42']!.updated_at!)).toBe(Date.parse(createdAt['-42']!) + 5000)
    expect(text).toContain(',"Apple Orchards, ""the big one""",')
  })
})

describe('GET /api/v1/accounts/export: filters and sorts, as the list’s', () => {
  const cases: Array<[string, () => string, string[]]> = [
    ['tag, in any case', () => 'tag=FRUIT', ['banana Traders', 'Apple Orchards, "the big one"']],
    ['q on the name, accents ignored', () => 'q=emi', ['Émile Industries']],
    ['q on the domain', () => 'q=apple-orch', ['Apple Orchards, "the big one"']],
    ['owner_id', () => `owner_id=${users.agent.user.id}`, ['banana Traders']],
    ['owner_id=none', () => 'owner_id=none', ['Apple Orchards, "the big one"', '=HYPERLINK("http://evil.test")', '-42']],
    ['created_after (exclusive)', () => `created_after=${createdAt['Émile Industries']}`, ['=HYPERLINK("http://evil.test")', '-42']],
    [
      'created_before (exclusive)',
      () => `created_before=${createdAt['Émile Industries']}`,
      ['banana Traders', 'Apple Orchards, "the big one"'],
    ],
    ['nobody: the header alone', () => 'q=zzz', []],
    [
      'sort=name:asc',
      () => 'sort=name:asc',
      ['-42', '=HYPERLINK("http://evil.test")', 'Apple Orchards, "the big one"', 'banana Traders', 'Émile Industries'],
    ],
    [
      'sort=updated_at:desc',
      () => 'sort=updated_at:desc',
      ['-42', '=HYPERLINK("http://evil.test")', 'Émile Industries', 'Apple Orchards, "the big one"', 'banana Traders'],
    ],
    ['tag and sort together', () => 'tag=fruit&sort=name:desc', ['banana Traders', 'Apple Orchards, "the big one"']],
  ]
  for (const [what, query, expected] of cases)
    test(what, async () => {
      const q = query()
      const { rows, text } = await download(q)
      expect(namesOf(rows)).toEqual(expected.map(csvName))
      expect(rows.map((r) => r.id)).toEqual(await listedIds(q.includes('sort=') ? q : `${q}&sort=created_at:asc`))
      if (expected.length === 0) expect(text).toBe(`\uFEFF${COLUMNS.join(',')}\r\n`)
    })

  const refused: Array<[string, string]> = [
    ['created_after=garbage', 'created_after'],
    ['created_before=2026-02-30T00:00:00Z', 'created_before'],
    ['sort=domain:asc', 'sort'],
    ['sort=last_activity_at:asc', 'sort'],
  ]
  for (const [query, field] of refused)
    test(`?${query}: 400 VALIDATION_FAILED naming ${field}, before any CSV`, async () => {
      const response = await send('GET', `/api/v1/accounts/export?${query}`)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      expect(response.headers.get('content-disposition')).toBeNull()
      await expectError(response, 400, 'VALIDATION_FAILED', field)
    })
})

describe('GET /api/v1/accounts/export: who may', () => {
  test('no token: 401 in JSON, no CSV', async () => {
    const response = await app.request('/api/v1/accounts/export')
    expect(response.headers.get('content-disposition')).toBeNull()
    await expectError(response, 401, 'UNAUTHENTICATED')
  })

  for (const role of ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const)
    test(`${role} (account:read): 200, every account of the organization`, async () => {
      expect(namesOf((await download('', users[role].auth)).rows)).toEqual(NAMES.map(csvName))
    })

  test('another organization exports only its own, whatever it filters by', async () => {
    const auth = globex.users.viewer.auth
    expect(namesOf((await download('', auth)).rows)).toEqual(['Banana Elsewhere'])
    expect((await download(`owner_id=${users.agent.user.id}`, auth)).rows).toEqual([])
    expect(namesOf((await download('q=banana', auth)).rows)).toEqual(['Banana Elsewhere'])
    expect((await download('q=apple', auth)).rows).toEqual([])
  })
})
