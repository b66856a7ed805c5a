// POST /api/v1/contacts/import: a CSV file of contacts, streamed, checked row by row; the accepted rows
// created with their events, the refused ones reported with reasons; file-level refusals import nothing;
// dry runs write nothing; an Idempotency-Key is bound to the file; who may import what.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, page } = crmClient(app, users.supervisor.auth)

interface Report {
  dry_run: boolean
  total_rows: number
  accepted_count: number
  refused_count: number
  accepted: { row: number; line: number; id: string | null }[]
  refused: { row: number; line: number; errors: { field: string; message: string }[] }[]
}

function upload(
  csv: string | ReadableStream<Uint8Array>,
  options: { auth?: Record<string, string>; query?: string; headers?: Record<string, string> } = {},
) {
  return app.request(`/api/v1/contacts/import${options.query ?? ''}`, {
    method: 'POST',
    headers: { ...(options.auth ?? users.supervisor.auth), 'content-type': 'text/csv', ...options.headers },
    body: csv,
  })
}

async function imported(csv: string, options: Parameters<typeof upload>[1] = {}): Promise<Report> {
  const response = await upload(csv, options)
  expect(response.status, await response.clone().text()).toBe(200)
  return json<Report>(response)
}

const contactCount = async () =>
  Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE organization_id = ?', [acme.org.id]))?.n)
const createdEvents = async () =>
  Number((await app.context.db.raw.get<{ n: number }>("SELECT count(*) AS n FROM events WHERE type = 'crm.contact.created'"))?.n)
const getContact = async (id: string) => json<Contact>(await send('GET', `/api/v1/contacts/${id}`))

describe('accepted rows', () => {
  test('every column an import reads lands in the contact, as the API shows it; one crm.contact.created each', async () => {
    const account = await createAccount({ name: 'Initech', domain: 'initech.example' })
    const events = await createdEvents()
    const csv = [
      'name,email,phone,external_id,contact_type,account_domain,owner_email,blocked,tags,custom_fields,consent_email,consent_email_at,consent_marketing',
    ]
    csv.push(
      ` Peter Gibbons ,Peter@Initech.example,+1 (415) 555-0100,ext-1,customer,https://www.initech.example/,${users.agent.user.email},TRUE,"vip, tps",` +
        '"{""plan"":""gold"",""seats"":5,""beta"":true}",yes,2025-03-01T10:00:00.000Z,no',
      'Milton Waddams,,,,,,,,,,,,',
    )
    const report = await imported(csv.join('\r\n'))
    expect(report).toMatchObject({ dry_run: false, total_rows: 2, accepted_count: 2, refused_count: 0, refused: [] })
    expect(report.accepted.map((a) => [a.row, a.line])).toEqual([
      [2, 2],
      [3, 3],
    ])
    const peter = await getContact(report.accepted[0]!.id!)
    expect(peter).toMatchObject({
      name: 'Peter Gibbons',
      email: 'peter@initech.example',
      phone: '+14155550100',
      external_id: 'ext-1',
      contact_type: 'customer',
      account_id: account.id,
      owner_id: users.agent.user.id,
      blocked: true,
      tags: ['vip', 'tps'],
      custom_fields: { plan: 'gold', seats: 5, beta: true },
      consent: {
        email: { granted: true, at: '2025-03-01T10:00:00.000Z' },
        sms: { granted: false, at: null },
        marketing: { granted: false, at: new Date(app.clock.now()).toISOString() },
      },
    })
    const milton = await getContact(report.accepted[1]!.id!)
    expect(milton).toMatchObject({ name: 'Milton Waddams', email: null, phone: null, contact_type: 'visitor', tags: [], blocked: false })
    expect(await createdEvents()).toBe(events + 2)
  })

  test('a file streamed in small chunks, with a BOM, quoted newlines and a header only in lowercase after trimming', async () => {
    const text = '\uFEFF NAME , Email \r\n"Line one\nline two",multi@line.example\r\n'
    const bytes = new TextEncoder().encode(text)
    let at = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close()
        controller.enqueue(bytes.slice(at, at + 3))
        at += 3
      },
    })
    const report = await json<Report>(await upload(stream))
    expect(report.accepted_count).toBe(1)
    expect(report.accepted[0]).toMatchObject({ row: 2, line: 3 })
    expect((await getContact(report.accepted[0]!.id!)).name).toBe('Line one\nline two')
  })

  test('blank lines and rows of empty cells are skipped, and counted in the row numbers a spreadsheet shows', async () => {
    const report = await imported('name,email\n\nFirst,first-blank@example.com\n,\n  ,  \nSecond,second-blank@example.com\n,,\n')
    expect(report.total_rows).toBe(2)
    expect(report.accepted.map((a) => [a.row, a.line])).toEqual([
      [3, 3],
      [6, 6],
    ])
  })

  test("an export's own columns (id, times) are read past; a cell a spreadsheet escaped with ' is read back", async () => {
    const report = await imported(
      "id,name,email,created_at,updated_at,last_activity_at\r\ncon_X,'=1+2,formula@example.com,2020-01-01T00:00:00.000Z,,\r\n",
    )
    const contact = await getContact(report.accepted[0]!.id!)
    expect(contact.id).not.toBe('con_X')
    expect(contact.name).toBe('=1+2')
    expect(contact.created_at).toBe(new Date(app.clock.now()).toISOString())
  })
})

describe('refused rows: reported with their reasons, the rest imported', () => {
  test('each rule names its column; rows of this file are named by row', async () => {
    await createContact({ name: 'Taken', email: 'taken@example.com' })
    const otherAccount = await crmClient(app, globex.users.supervisor.auth).createAccount({ name: 'Globex', domain: 'globex.example' })
    const rows: [string, string][] = [
      ['Good One,good1@example.com,,,,', ''],
      [',noname@example.com,,,,', 'name'],
      ['Bad Email,not-an-email,,,,', 'email'],
      ['Bad Phone,,12345,,,', 'phone'],
      ['Bad Type,,,martian,,', 'contact_type'],
      ['Bad Blocked,,,,maybe,', 'blocked'],
      ['Bad Custom,,,,,[1]', 'custom_fields'],
      ['Taken Email,TAKEN@example.com,,,,', 'email'],
      ['Twice,twice@example.com,,,,', ''],
      ['Twice Again,twice@example.com,,,,', 'email'],
      ['Short row,short@example.com', 'row'],
    ]
    const header = 'name,email,phone,contact_type,blocked,custom_fields'
    const report = await imported([header, ...rows.map(([line]) => line)].join('\n'))
    expect(report.total_rows).toBe(rows.length)
    expect(report.accepted.map((a) => a.row)).toEqual([2, 10])
    expect(report.refused.map((r) => [r.row, r.errors[0]!.field])).toEqual(
      rows.flatMap(([, field], i) => (field === '' ? [] : [[i + 2, field]])),
    )
    const twice = report.refused.find((r) => r.row === 11)!
    expect(twice.errors[0]!.message).toBe('is already the email of row 10 of this file')
    const taken = report.refused.find((r) => r.row === 9)!
    expect(taken.errors[0]!.message).toMatch(/^is already the email of contact con_/)
    expect(report.refused.find((r) => r.row === 12)!.errors[0]!.message).toBe('has 2 cells; the header has 6')
    // Another organization's account, by id or by domain, is as unknown as none.
    const refs = await imported(
      `name,account_id,account_domain,owner_email\nA,${otherAccount.id},,\nB,,globex.example,\nC,,,${globex.users.agent.user.email}\nD,,,nobody@example.com`,
    )
    expect(refs.refused.map((r) => r.errors[0]!.field)).toEqual(['account_id', 'account_domain', 'owner_email', 'owner_email'])
  })

  test('consent times: only with the consent they date, RFC 3339, not in the future', async () => {
    const future = new Date(app.clock.now() + 60_000).toISOString()
    const report = await imported(
      `name,consent_sms,consent_sms_at\nA,,2025-01-01T00:00:00Z\nB,true,yesterday\nC,true,${future}\nD,true,2025-01-01T00:00:00Z`,
    )
    expect(report.refused.map((r) => r.errors)).toEqual([
      [{ field: 'consent_sms_at', message: 'needs consent_sms' }],
      [{ field: 'consent_sms_at', message: 'must be an RFC 3339 time' }],
      [{ field: 'consent_sms_at', message: 'must not be in the future' }],
    ])
    expect((await getContact(report.accepted[0]!.id!)).consent.sms).toEqual({ granted: true, at: '2025-01-01T00:00:00.000Z' })
  })

  test('a NUL in a cell refuses that row, naming the column', async () => {
    const report = await imported('name,external_id\nNul,a\u0000b\nFine,c')
    expect(report.refused).toEqual([
      { row: 2, line: 2, errors: [{ field: 'external_id', message: 'must not contain the NUL character (U+0000)' }] },
    ])
    expect(report.accepted_count).toBe(1)
  })
})

describe('refused files: 4xx, nothing imported', () => {
  const cases: [string, string | Uint8Array, number, string, string?][] = [
    ['an unknown column (a misspelt one would be lost)', 'name,e-mail\nA,a@example.com', 400, 'VALIDATION_FAILED', 'header'],
    ['a column named twice', 'name,Name\nA,B', 400, 'VALIDATION_FAILED', 'header'],
    ['no name column', 'email\na@example.com', 400, 'VALIDATION_FAILED', 'header'],
    ['an empty file', '', 400, 'VALIDATION_FAILED', 'body'],
    ['a header and no rows', 'name,email\r\n', 400, 'VALIDATION_FAILED', 'body'],
    ['a quote never closed', 'name,email\n"Open,a@example.com\nB,b@example.com', 400, 'VALIDATION_FAILED', 'body'],
    ['bytes that are not UTF-8', new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41]), 400, 'VALIDATION_FAILED', 'body'],
  ]
  for (const [what, body, status, code, field] of cases)
    test(what, async () => {
      const before = await contactCount()
      const response = await app.request('/api/v1/contacts/import', {
        method: 'POST',
        headers: { ...users.supervisor.auth, 'content-type': 'text/csv' },
        body,
      })
      const error = await expectError(response, status, code, field)
      expect(error.message).not.toContain('at ') // no stack
      expect(await contactCount()).toBe(before)
    })

  test('JSON, or no content type, is 415 naming text/csv', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, {}] as Record<string, string>[]) {
      const response = await app.request('/api/v1/contacts/import', {
        method: 'POST',
        headers: { ...users.supervisor.auth, ...headers },
        body: '{}',
      })
      const error = await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(error.message).toContain('text/csv')
    }
  })
})

describe('dry run', () => {
  test('the same report, ids null; nothing written, no event', async () => {
    const before = { contacts: await contactCount(), events: await createdEvents() }
    const report = await imported('name,email\nDry,dry@example.com\nDry Twice,dry@example.com\nBad,nope', { query: '?dry_run=true' })
    expect(report).toMatchObject({ dry_run: true, total_rows: 3, accepted_count: 1, refused_count: 2 })
    expect(report.accepted).toEqual([{ row: 2, line: 2, id: null }])
    expect(report.refused[0]!.errors[0]!.message).toBe('is already the email of row 2 of this file')
    expect({ contacts: await contactCount(), events: await createdEvents() }).toEqual(before)
  })
})

describe('Idempotency-Key', () => {
  test('the same file again replays the first report; another file under the key is 409', async () => {
    const headers = { 'idempotency-key': 'import-once' }
    const first = await upload('name\nIdem One\nIdem Two', { headers })
    const report = await json<Report>(first)
    const count = await contactCount()
    const again = await upload('name\nIdem One\nIdem Two', { headers })
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json<Report>(again)).toEqual(report)
    expect(await contactCount()).toBe(count)
    await expectError(await upload('name\nIdem Three', { headers }), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await contactCount()).toBe(count)
  })
})

describe('who may import', () => {
  test('no token 401; a viewer 403; another organization sees none of it', async () => {
    const anonymous = await app.request('/api/v1/contacts/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: 'name\nA',
    })
    await expectError(anonymous, 401, 'UNAUTHENTICATED')
    await expectError(await upload('name\nA', { auth: users.viewer.auth }), 403, 'INSUFFICIENT_PERMISSIONS')
    const report = await imported('name,email\nOnly Globex,only-globex@example.com', { auth: globex.users.admin.auth })
    await expectError(await send('GET', `/api/v1/contacts/${report.accepted[0]!.id}`), 404, 'NOT_FOUND')
  })

  test('an agent imports contacts it owns or nobody owns; a row giving one to another user is refused', async () => {
    const agent = users.agent
    const report = await imported(`name,owner_id\nMine,${agent.user.id}\nNobody's,\nTheirs,${users.supervisor.user.id}`, {
      auth: agent.auth,
    })
    expect(report.accepted.map((a) => a.row)).toEqual([2, 3])
    expect(report.refused).toEqual([
      {
        row: 4,
        line: 4,
        errors: [{ field: 'owner_id', message: expect.stringContaining('An agent may make itself or nobody the owner') }],
      },
    ])
    const { items } = await page<Contact>(`/api/v1/contacts?owner_id=${agent.user.id}`, 'contacts')
    expect(items.map((c) => c.name)).toContain('Mine')
  })
})
