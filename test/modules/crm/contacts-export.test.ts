// GET /api/v1/contacts/export: the CSV a client downloads (headers, BOM, CRLF, columns, values as the JSON API shows them, formula cells escaped), its filters and sorts, keyset batches, tenancy, permissions, and a round trip through the import.
import { beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { prefixedId } from '../../../src/lib/ids.ts'
import { searchKey } from '../../../src/lib/search-key.ts'
import { EXPORT_COLUMNS } from '../../../src/modules/crm/contacts/csv-columns.ts'
import type { ContactsTable } from '../../../src/modules/crm/table.ts'
import { json, type TestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'
import { type Account, type Auth, type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, page } = crmClient(app, users.supervisor.auth)

// The columns as the feature promises them, written out: a client's spreadsheet relies on this order.
const COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'external_id',
  'contact_type',
  'account_id',
  'account_domain',
  'owner_id',
  'owner_email',
  'blocked',
  'tags',
  'custom_fields',
  'consent_email',
  'consent_email_at',
  'consent_sms',
  'consent_sms_at',
  'consent_marketing',
  'consent_marketing_at',
  'last_activity_at',
  'created_at',
  'updated_at',
]

type Row = Record<string, string>

interface Download {
  response: Response
  bytes: Uint8Array
  /** The body decoded with its BOM kept. */
  text: string
  /** The rows as a client's CSV reader gives them, keyed by the header. */
  rows: Row[]
}

/** Downloads an export and reads it as a client would (csv-parse, the BOM stripped by the reader). */
async function download(query = '', auth: Auth = users.supervisor.auth, path = '/api/v1/contacts/export'): Promise<Download> {
  const response = await app.request(`${path}${query === '' ? '' : `?${query}`}`, { headers: auth })
  const bytes = new Uint8Array(await response.clone().arrayBuffer())
  expect(response.status, new TextDecoder().decode(bytes).slice(0, 500)).toBe(200)
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  const rows = parse(text, { bom: true, columns: true, relax_column_count: false }) as Row[]
  return { response, bytes, text, rows }
}

const namesOf = (rows: Row[]) => rows.map((r) => r.name)

/** The ids the JSON list gives for the same filters and sort, every page. */
async function listedIds(query: string, auth: Auth = users.supervisor.auth): Promise<string[]> {
  const ids: string[] = []
  let token = ''
  for (;;) {
    const { items, next } = await page<Contact>(
      `/api/v1/contacts?${query}&page_size=100${token === '' ? '' : `&page_token=${token}`}`,
      'contacts',
      auth,
    )
    ids.push(...items.map((c) => c.id))
    if (next === '') return ids
    token = next
  }
}

// Cells a spreadsheet would run as formulas, and what the export must write instead.
const FORMULA_NAMES: Record<string, string> = {
  '=1+2': "'=1+2",
  '@SUM(A1)': "'@SUM(A1)",
  "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0",
  '-5': '-5',
}

let exampleCorp: Account
let bare: Account
const made: Record<string, Contact> = {}
const createdAt: Record<string, string> = {}
let marketingAt = ''
let ticketAt = ''

beforeAll(async () => {
  exampleCorp = await createAccount({ name: 'Example Corp', domain: 'example.com' })
  bare = await createAccount({ name: 'No Domain Ltd' })
  const specs: Array<[string, Record<string, unknown>]> = [
    [
      'Grace Customer',
      {
        email: 'Grace@Example.com',
        phone: '+44 20 7946 0958',
        external_id: 'crm-1',
        contact_type: 'customer',
        account_id: exampleCorp.id,
        owner_id: users.agent.user.id,
        tags: ['vip', 'late'],
        custom_fields: { plan: 'gold', seats: 12, ratio: 1.5, trial: false },
        consent: { email: true, sms: false },
      },
    ],
    [
      'Émile Roux, "the elder"',
      { email: 'emile@example.fr', contact_type: 'lead', blocked: true, account_id: bare.id, owner_id: users.agent.user.id },
    ],
    ['=1+2', { external_id: '-crm-7', tags: ['vip'] }],
    ['@SUM(A1)', { owner_id: users.supervisor.user.id }],
    ["+cmd|' /C calc'!A0", {}],
    ['-5', { phone: '+14155550123' }],
  ]
  for (const [name, body] of specs) {
    app.clock.advance(1000)
    made[name] = await createContact({ name, ...body })
    createdAt[name] = made[name]!.created_at
  }
  // Marketing consent given later than the rest: its own time, not the creation's.
  app.clock.advance(60_000)
  marketingAt = new Date(app.clock.now()).toISOString()
  const patched = await send('PATCH', `/api/v1/contacts/${made['Grace Customer']!.id}`, { consent: { marketing: true } })
  expect(patched.status).toBe(200)
  // A ticket of Grace's gives her a last activity.
  app.clock.advance(1000)
  ticketAt = new Date(app.clock.now()).toISOString()
  const ticket = await send('POST', '/api/v1/tickets', {
    subject: 'Help',
    requester: { name: 'Grace Customer', email: 'grace@example.com' },
  })
  expect(ticket.status).toBe(201)
  // Neither a contact merged away nor a deleted one is exported.
  app.clock.advance(1000)
  const twin = await createContact({ name: 'Grace Twin', email: 'grace.old@example.com' })
  expect((await send('POST', `/api/v1/contacts/${made['Grace Customer']!.id}/merge`, { other_id: twin.id })).status).toBe(200)
  const gone = await createContact({ name: 'Gone Away' })
  expect((await send('DELETE', `/api/v1/contacts/${gone.id}`)).status).toBe(204)
  // Another organization's contact, with the same e-mail as one of ours.
  await createContact({ name: 'Grace Elsewhere', email: 'grace@example.com' }, globex.users.admin.auth)
})

const LIVE_NAMES = ['Grace Customer', 'Émile Roux, "the elder"', '=1+2', '@SUM(A1)', "+cmd|' /C calc'!A0", '-5']
const CSV_NAME = (name: string) => FORMULA_NAMES[name] ?? name

describe('GET /api/v1/contacts/export: the file', () => {
  test('text/csv in UTF-8, an attachment named after the fake clock’s day, never cached', async () => {
    const { response } = await download()
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const day = new Date(app.clock.now()).toISOString().slice(0, 10)
    expect(day).toBe('2026-01-01')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="contacts-2026-01-01.csv"')
  })

  test('a UTF-8 BOM first, CRLF after every record, a header row of exactly the promised columns', async () => {
    const { bytes, text } = await download()
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(text.endsWith('\r\n')).toBe(true)
    // No bare LF anywhere (no cell here holds a line break).
    expect(/[^\r]\n/.test(text)).toBe(false)
    const lines = text.slice(1).split('\r\n')
    expect(lines.at(-1)).toBe('')
    expect(lines[0]).toBe(COLUMNS.join(','))
    expect<readonly string[]>(EXPORT_COLUMNS).toEqual(COLUMNS)
    const records = parse(text, { bom: true }) as string[][]
    expect(records[0]).toEqual(COLUMNS)
    expect(records.slice(1).every((r) => r.length === COLUMNS.length)).toBe(true)
  })

  test('one row per live contact, oldest first: merged, deleted and other organizations’ contacts absent', async () => {
    const { rows } = await download()
    expect(namesOf(rows)).toEqual(LIVE_NAMES.map(CSV_NAME))
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
    expect(rows.map((r) => r.id)).toEqual(await listedIds('sort=created_at:asc'))
  })

  test('every cell is what GET /api/v1/contacts/{id} shows, account_domain and owner_email filled in', async () => {
    const { rows } = await download()
    const emails: Record<string, string> = Object.fromEntries(Object.values(users).map((u) => [u.user.id, u.user.email]))
    for (const row of rows) {
      const response = await send('GET', `/api/v1/contacts/${row.id}`)
      expect(response.status).toBe(200)
      const contact = await json<Contact & { account: Account | null }>(response)
      const consentCells = (channel: 'email' | 'sms' | 'marketing') => {
        const entry = contact.consent[channel]
        return entry.at === null
          ? { [`consent_${channel}`]: '', [`consent_${channel}_at`]: '' }
          : { [`consent_${channel}`]: String(entry.granted), [`consent_${channel}_at`]: entry.at }
      }
      const expected: Row = {
        id: contact.id,
        name: CSV_NAME(contact.name),
        email: contact.email ?? '',
        phone: contact.phone ?? '',
        external_id: contact.external_id === '-crm-7' ? "'-crm-7" : (contact.external_id ?? ''),
        contact_type: contact.contact_type,
        account_id: contact.account_id ?? '',
        account_domain: contact.account?.domain ?? '',
        owner_id: contact.owner_id ?? '',
        owner_email: contact.owner_id === null ? '' : emails[contact.owner_id]!,
        blocked: String(contact.blocked),
        tags: contact.tags.join(' '),
        custom_fields: Object.keys(contact.custom_fields).length === 0 ? '' : row.custom_fields!,
        ...consentCells('email'),
        ...consentCells('sms'),
        ...consentCells('marketing'),
        last_activity_at: contact.last_activity_at ?? '',
        created_at: contact.created_at,
        updated_at: contact.updated_at,
      }
      expect(row).toEqual(expected)
      // Custom fields as exact JSON: numbers and booleans stay what they are.
      if (row.custom_fields !== '') expect(JSON.parse(row.custom_fields!)).toEqual(contact.custom_fields)
    }
  })

  test('Grace’s row, written out: account domain, owner e-mail, tags, JSON custom fields, consent with times, last activity', async () => {
    const { rows } = await download()
    const grace = rows.find((r) => r.name === 'Grace Customer')!
    const created = createdAt['Grace Customer']!
    expect(grace).toMatchObject({
      email: 'grace@example.com',
      phone: '+442079460958',
      external_id: 'crm-1',
      contact_type: 'customer',
      account_id: exampleCorp.id,
      account_domain: 'example.com',
      owner_id: users.agent.user.id,
      owner_email: 'agent@acme.test',
      blocked: 'false',
      tags: 'vip late',
      consent_email: 'true',
      consent_email_at: created,
      consent_sms: 'false',
      consent_sms_at: created,
      consent_marketing: 'true',
      created_at: created,
    })
    expect(JSON.parse(grace.custom_fields!)).toEqual({ plan: 'gold', seats: 12, ratio: 1.5, trial: false })
    expect(grace.consent_marketing_at).toBe(marketingAt)
    expect(grace.last_activity_at).toBe(ticketAt)
    // Never asked, never had a ticket, no account, no owner, no custom fields: empty cells.
    const minus = rows.find((r) => r.name === '-5')!
    expect(minus).toMatchObject({
      account_id: '',
      account_domain: '',
      owner_id: '',
      owner_email: '',
      tags: '',
      custom_fields: '',
      consent_email: '',
      consent_email_at: '',
      consent_sms: '',
      consent_sms_at: '',
      consent_marketing: '',
      consent_marketing_at: '',
      last_activity_at: '',
      blocked: 'false',
    })
    // An account without a domain: its id, an empty domain.
    const emile = rows.find((r) => r.name === 'Émile Roux, "the elder"')!
    expect(emile).toMatchObject({
      account_id: bare.id,
      account_domain: '',
      blocked: 'true',
      contact_type: 'lead',
      owner_email: 'agent@acme.test',
    })
  })

  test('a name with a comma and quotes is quoted per RFC 4180', async () => {
    const { text } = await download()
    expect(text).toContain(',"Émile Roux, ""the elder""",')
  })

  test('cells a spreadsheet would run get a leading quote; a phone number and a negative number do not', async () => {
    const { rows } = await download()
    const cells = Object.fromEntries(rows.map((r) => [r.id, r]))
    expect(cells[made['=1+2']!.id]!.name).toBe("'=1+2")
    expect(cells[made['@SUM(A1)']!.id]!.name).toBe("'@SUM(A1)")
    expect(cells[made["+cmd|' /C calc'!A0"]!.id]!.name).toBe("'+cmd|' /C calc'!A0")
    expect(cells[made['=1+2']!.id]!.external_id).toBe("'-crm-7")
    expect(cells[made['-5']!.id]!.name).toBe('-5')
    expect(cells[made['-5']!.id]!.phone).toBe('+14155550123')
    expect(cells[made['Grace Customer']!.id]!.phone).toBe('+442079460958')
  })
})

describe('GET /api/v1/contacts/export: filters and sorts, as the list’s', () => {
  const cases: Array<[string, () => string, string[]]> = [
    ['tag', () => 'tag=VIP', ['Grace Customer', '=1+2']],
    ['q on the name', () => 'q=grace', ['Grace Customer']],
    ['q on the name, accents ignored', () => 'q=emile', ['Émile Roux, "the elder"']],
    ['account_id', () => `account_id=${exampleCorp.id}`, ['Grace Customer']],
    ['account_id=none', () => 'account_id=none', ['=1+2', '@SUM(A1)', "+cmd|' /C calc'!A0", '-5']],
    ['owner_id', () => `owner_id=${users.agent.user.id}`, ['Grace Customer', 'Émile Roux, "the elder"']],
    ['owner_id=none', () => 'owner_id=none', ['=1+2', "+cmd|' /C calc'!A0", '-5']],
    ['contact_type', () => 'contact_type=lead', ['Émile Roux, "the elder"']],
    ['blocked=true', () => 'blocked=true', ['Émile Roux, "the elder"']],
    ['created_after (exclusive)', () => `created_after=${createdAt['=1+2']}`, ['@SUM(A1)', "+cmd|' /C calc'!A0", '-5']],
    ['created_before (exclusive)', () => `created_before=${createdAt['=1+2']}`, ['Grace Customer', 'Émile Roux, "the elder"']],
    ['a filter that selects nobody: the header alone', () => 'q=nobody-at-all', []],
    [
      'sort=name:asc (case and accents ignored)',
      () => 'sort=name:asc',
      ["+cmd|' /C calc'!A0", '-5', '=1+2', '@SUM(A1)', 'Émile Roux, "the elder"', 'Grace Customer'],
    ],
    [
      'sort=name:desc',
      () => 'sort=name:desc',
      ['Grace Customer', 'Émile Roux, "the elder"', '@SUM(A1)', '=1+2', '-5', "+cmd|' /C calc'!A0"],
    ],
    ['sort=created_at:desc', () => 'sort=created_at:desc', [...LIVE_NAMES].reverse()],
    ['a filter and a sort together', () => 'account_id=none&sort=name:asc', ["+cmd|' /C calc'!A0", '-5', '=1+2', '@SUM(A1)']],
  ]
  for (const [what, query, expected] of cases)
    test(what, async () => {
      const q = query()
      const { rows, text } = await download(q)
      expect(namesOf(rows)).toEqual(expected.map(CSV_NAME))
      // The same contacts, in the same order, as the JSON list with the same query.
      const sort = q.includes('sort=') ? '' : '&sort=created_at:asc'
      expect(rows.map((r) => r.id)).toEqual(await listedIds(`${q}${sort}`))
      if (expected.length === 0) expect(text).toBe(`\uFEFF${COLUMNS.join(',')}\r\n`)
    })

  const refused: Array<[string, string]> = [
    ['created_after=garbage', 'created_after'],
    ['created_after=2026-13-01T00:00:00Z', 'created_after'],
    ['created_before=yesterday', 'created_before'],
    ['blocked=maybe', 'blocked'],
    ['contact_type=prospect', 'contact_type'],
    ['sort=email:asc', 'sort'],
    ['sort=name', 'sort'],
  ]
  for (const [query, field] of refused)
    test(`?${query}: 400 VALIDATION_FAILED naming ${field}, in JSON, before any CSV`, async () => {
      const response = await send('GET', `/api/v1/contacts/export?${query}`)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      expect(response.headers.get('content-disposition')).toBeNull()
      await expectError(response, 400, 'VALIDATION_FAILED', field)
    })
})

describe('GET /api/v1/contacts/export: who may', () => {
  test('no token: 401 in JSON, no CSV', async () => {
    const response = await app.request('/api/v1/contacts/export')
    expect(response.headers.get('content-disposition')).toBeNull()
    await expectError(response, 401, 'UNAUTHENTICATED')
  })

  test('a bad token: 401 TOKEN_INVALID', async () => {
    await expectError(await app.request('/api/v1/contacts/export', { headers: { authorization: 'Bearer nope' } }), 401, 'TOKEN_INVALID')
  })

  for (const role of ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const)
    test(`${role} (contact:read): 200, the whole organization`, async () => {
      const { rows } = await download('', users[role].auth)
      expect(namesOf(rows)).toEqual(LIVE_NAMES.map(CSV_NAME))
    })

  test('another organization exports only its own, even filtering by our account or asking for our e-mail', async () => {
    const auth = globex.users.viewer.auth
    expect(namesOf((await download('', auth)).rows)).toEqual(['Grace Elsewhere'])
    expect((await download(`account_id=${exampleCorp.id}`, auth)).rows).toEqual([])
    expect((await download(`owner_id=${users.agent.user.id}`, auth)).rows).toEqual([])
    expect(namesOf((await download('q=grace', auth)).rows)).toEqual(['Grace Elsewhere'])
  })
})

// Contacts written straight into the table, in the app's own columns: thousands in a second.
async function insertContacts(target: TestApp, rows: ContactsTable[]): Promise<void> {
  const columns = Object.keys(rows[0]!) as (keyof ContactsTable)[]
  const chunk = 500
  await target.context.db.write('test.insert_contacts', async (tx) => {
    for (let i = 0; i < rows.length; i += chunk) {
      const slice = rows.slice(i, i + chunk)
      const values = slice.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')
      await tx.raw.run(
        `INSERT INTO contacts (${columns.join(', ')}) VALUES ${values}`,
        slice.flatMap((row) => columns.map((c) => row[c])),
      )
      const tagged = slice.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => [row.id, row.organization_id, tag]))
      if (tagged.length > 0)
        await tx.raw.run(
          `INSERT INTO contact_tags (contact_id, organization_id, tag) VALUES ${tagged.map(() => '(?, ?, ?)').join(', ')}`,
          tagged.flat(),
        )
    }
  })
}

describe('GET /api/v1/contacts/export: more contacts than one batch (1000)', () => {
  const COUNT = 2500
  let hooli: Awaited<ReturnType<typeof seedOrganization>>
  let seeded: ContactsTable[] = []
  const base = Date.UTC(2025, 5, 1)

  beforeAll(async () => {
    hooli = await seedOrganization(app, 'hooli')
    const owner = hooli.users.agent.user
    const account = await createAccount({ name: 'Hooli XYZ', domain: 'hooli.xyz' }, hooli.users.admin.auth)
    seeded = Array.from({ length: COUNT }, (_, i): ContactsTable => {
      const name = `Person ${String(i % 300).padStart(3, '0')}`
      // Seven contacts to a millisecond: batches end inside a run of equal times, and the id decides.
      const at = base + Math.floor(i / 7) * 1000
      return {
        id: prefixedId('con'),
        organization_id: hooli.org.id,
        name,
        name_key: searchKey(name),
        email: `p${i}@hooli.xyz`,
        phone: null,
        external_id: null,
        contact_type: 'customer',
        account_id: i % 5 === 0 ? account.id : null,
        owner_id: i % 3 === 0 ? owner.id : null,
        blocked: false,
        consent: JSON.stringify({ email: null, sms: null, marketing: null }),
        tags: JSON.stringify(i % 2 === 0 ? ['even'] : []),
        custom_fields: JSON.stringify({ n: i }),
        last_activity_at: 0,
        merged_into_id: null,
        created_at: at,
        updated_at: at,
      }
    })
    await insertContacts(app, seeded)
  })

  const byKey = (key: (r: ContactsTable) => string | number, direction: 1 | -1) => (a: ContactsTable, b: ContactsTable) => {
    const ka = key(a)
    const kb = key(b)
    if (ka !== kb) return (ka < kb ? -1 : 1) * direction
    return (a.id < b.id ? -1 : 1) * direction
  }

  const cases: Array<[string, string, (r: ContactsTable) => boolean, (a: ContactsTable, b: ContactsTable) => number]> = [
    ['oldest first by default', '', () => true, byKey((r) => r.created_at, 1)],
    ['created_at:desc', 'sort=created_at:desc', () => true, byKey((r) => r.created_at, -1)],
    ['name:asc, 300 names each eight or nine times', 'sort=name:asc', () => true, byKey((r) => r.name_key, 1)],
    ['a filter across batches (owner_id=none)', 'owner_id=none', (r) => r.owner_id === null, byKey((r) => r.created_at, 1)],
    ['tag across batches, by name descending', 'tag=even&sort=name:desc', (r) => r.tags.includes('even'), byKey((r) => r.name_key, -1)],
  ]
  for (const [what, query, keep, order] of cases)
    test(`${what}: every contact exactly once, in order`, async () => {
      const { rows } = await download(query, hooli.users.viewer.auth)
      const expected = seeded.filter(keep).sort(order)
      expect(rows.length).toBe(expected.length)
      expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id))
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
    })

  test('every row’s account domain and owner e-mail, in every batch', async () => {
    const { rows } = await download('', hooli.users.viewer.auth)
    const byId = new Map(seeded.map((r) => [r.id, r]))
    for (const row of rows) {
      const source = byId.get(row.id!)!
      expect(row.account_domain).toBe(source.account_id === null ? '' : 'hooli.xyz')
      expect(row.owner_email).toBe(source.owner_id === null ? '' : 'agent@hooli.test')
      expect(JSON.parse(row.custom_fields!)).toEqual(JSON.parse(source.custom_fields))
      expect(row.created_at).toBe(new Date(source.created_at).toISOString())
    }
  }, 60_000)
})

describe('round trip: the export of one organization imported into another', () => {
  interface Report {
    total_rows: number
    accepted_count: number
    refused_count: number
    accepted: { row: number; id: string | null }[]
    refused: { row: number; errors: { field: string; message: string }[] }[]
  }

  test('the same contacts, ids and times aside; the owner named by e-mail; an owner from elsewhere refused', async () => {
    const initech = await seedOrganization(app, 'initech')
    const b = crmClient(app, initech.users.supervisor.auth)
    const theirs = await b.createAccount({ name: 'Example Corp (theirs)', domain: 'example.com' })
    // Contacts whose account has a domain or who have none: those an export names in a way another organization can read.
    const { text, rows } = await download('account_id=none')
    const withAccount = await download(`account_id=${exampleCorp.id}`)
    const exported = [...withAccount.rows, ...rows]
    const csv = withAccount.text + text.slice(text.indexOf('\r\n') + 2)
    const upload = (body: string, query = '') =>
      app.request(`/api/v1/contacts/import${query}`, {
        method: 'POST',
        headers: { ...initech.users.supervisor.auth, 'content-type': 'text/csv' },
        body,
      })
    app.clock.advance(1000)

    // As exported: the owners are users of acme, whose e-mails name nobody in initech.
    const dry = await upload(csv, '?dry_run=true')
    expect(dry.status).toBe(200)
    const dryReport = await json<Report>(dry)
    const owned = exported.flatMap((r, i) => (r.owner_email === '' ? [] : [i + 2]))
    expect(owned.length).toBeGreaterThan(0)
    expect(dryReport.refused.map((r) => r.row)).toEqual(owned)
    for (const refusal of dryReport.refused) expect(refusal.errors.map((e) => e.field)).toEqual(['owner_email'])

    // The owners' e-mails changed to those of initech's users of the same role: every row accepted.
    const records = parse(csv, { bom: true }) as string[][]
    const ownerColumn = records[0]!.indexOf('owner_email')
    for (const record of records.slice(1))
      if (record[ownerColumn] !== '') record[ownerColumn] = record[ownerColumn]!.replace('@acme.test', '@initech.test')
    // The whole export, its owners rewritten alike, in a dry run: only the contact of an account without a
    // domain is refused, naming account_id (its row names the account by acme's id, nothing in initech).
    const whole = parse((await download('sort=created_at:asc')).text, { bom: true }) as string[][]
    for (const record of whole.slice(1))
      if (record[ownerColumn] !== '') record[ownerColumn] = record[ownerColumn]!.replace('@acme.test', '@initech.test')
    const wholeDry = await json<Report>(await upload(stringify(whole, { record_delimiter: '\r\n' }), '?dry_run=true'))
    const emileRow = whole.findIndex((r) => r[1] === 'Émile Roux, "the elder"') + 1
    expect(wholeDry.refused.map((r) => [r.row, r.errors.map((e) => e.field)])).toEqual([[emileRow, ['account_id']]])
    const response = await upload(stringify(records, { record_delimiter: '\r\n' }))
    expect(response.status, await response.clone().text()).toBe(200)
    const report = await json<Report>(response)
    expect(report.refused).toEqual([])
    expect(report.accepted_count).toBe(exported.length)

    const ownersOf = (org: typeof acme) => Object.fromEntries(Object.values(org.users).map((u) => [u.user.id, u.user.role]))
    const acmeRoles = ownersOf(acme)
    const initechUsers = Object.fromEntries(Object.values(initech.users).map((u) => [u.user.role, u.user.id]))
    for (const [i, row] of exported.entries()) {
      const accepted = report.accepted.find((a) => a.row === i + 2)!
      const original = await json<Contact>(await send('GET', `/api/v1/contacts/${row.id}`))
      const copy = await json<Contact>(await b.send('GET', `/api/v1/contacts/${accepted.id}`))
      const same = (c: Contact) => ({
        name: c.name,
        email: c.email,
        phone: c.phone,
        external_id: c.external_id,
        contact_type: c.contact_type,
        blocked: c.blocked,
        tags: c.tags,
        custom_fields: c.custom_fields,
        consent: c.consent,
      })
      expect(same(copy)).toEqual(same(original))
      expect(copy.account_id).toBe(original.account_id === null ? null : theirs.id)
      expect(copy.owner_id).toBe(original.owner_id === null ? null : initechUsers[acmeRoles[original.owner_id]!]!)
      expect(copy.last_activity_at).toBeNull()
      expect(copy.created_at).toBe(new Date(app.clock.now()).toISOString())
    }
    // Custom fields keep their types; consent keeps its times.
    const grace = exported.findIndex((r) => r.name === 'Grace Customer')
    const graceCopy = await json<Contact>(await b.send('GET', `/api/v1/contacts/${report.accepted.find((a) => a.row === grace + 2)!.id}`))
    expect(graceCopy.custom_fields).toEqual({ plan: 'gold', seats: 12, ratio: 1.5, trial: false })
    expect(graceCopy.consent.marketing.at).toBe(withAccount.rows[0]!.consent_marketing_at!)
    // And initech's own export of them reads as acme's did, ids, owners and times aside.
    const again = await download('sort=created_at:asc', initech.users.viewer.auth)
    const strip = (r: Row) => {
      const { id, account_id, owner_id, owner_email, last_activity_at, created_at, updated_at, ...rest } = r
      return rest
    }
    expect(again.rows.map(strip).sort((x, y) => (x.name! < y.name! ? -1 : 1))).toEqual(
      exported.map(strip).sort((x, y) => (x.name! < y.name! ? -1 : 1)),
    )
  })
})

describe('a name that already starts with a quote', () => {
  // A spreadsheet hides a leading ' (it marks text), and the import takes off the one the export adds:
  // a cell that starts with ' must keep its own, or "'=x" and "=x" read back as the same name.
  test('"=x" and "\'=x" are different cells', async () => {
    const umbrella = await seedOrganization(app, 'umbrella')
    const auth = umbrella.users.admin.auth
    await createContact({ name: '=x' }, auth)
    app.clock.advance(1000)
    await createContact({ name: "'=x" }, auth)
    const { rows } = await download('', auth)
    expect(namesOf(rows)).toEqual(["'=x", "''=x"])
  })
})

describe('the next day', () => {
  // Last in the file: a day later every token above has expired (ACCESS_TOKEN_TTL is an hour).
  test('the day in the file name follows the clock', async () => {
    app.clock.advance(24 * 3600_000)
    const fresh = await signIn(app, users.viewer.user)
    const { response, rows } = await download('', fresh.auth)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="contacts-2026-01-02.csv"')
    expect(namesOf(rows)).toEqual(LIVE_NAMES.map(CSV_NAME))
  })
})
