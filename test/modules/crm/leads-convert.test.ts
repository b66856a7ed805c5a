// POST /api/v1/leads/{id}/convert: the contact found (e-mail, then phone) or created, the account by id,
// by domain or created, the links, the events in order, the refusals that change nothing, the same
// answer for a converted lead, and ten conversions at once making one contact.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { client, expectError, type Lead, leadsApp } from './leads-api.ts'

const { app, acme, globex } = await leadsApp()
const { users } = acme
const { send, get, leadIn } = client(app, users.admin.auth)
const iso = () => new Date(app.clock.now()).toISOString()

interface Contact {
  id: string
  name: string
  email: string | null
  phone: string | null
  contact_type: string
  account_id: string | null
  owner_id: string | null
  tags: string[]
  updated_at: string
}
interface Account {
  id: string
  name: string
  domain: string | null
}
interface Conversion {
  lead: Lead
  contact: Contact | null
  account: Account | null
}
interface Event {
  type: string
  data: { lead?: Lead; contact?: Contact | null; account?: Account | null; changed?: string[] }
}

const convert = (id: string, body: unknown, auth = users.admin.auth) => send('POST', `/api/v1/leads/${id}/convert`, auth, body)
const converted = async (id: string, body: unknown, auth = users.admin.auth): Promise<Conversion> => {
  const response = await convert(id, body, auth)
  expect(response.status).toBe(200)
  return json<Conversion>(response)
}
const postContact = async (body: Record<string, unknown>, auth = users.admin.auth): Promise<Contact> => {
  const response = await send('POST', '/api/v1/contacts', auth, body)
  expect(response.status).toBe(201)
  return json<Contact>(response)
}
const postAccount = async (body: Record<string, unknown>, auth = users.admin.auth): Promise<Account> => {
  const response = await send('POST', '/api/v1/accounts', auth, body)
  expect(response.status).toBe(201)
  return json<Account>(response)
}
/** The CRM events written after `since` (an event id), in order. */
const eventsAfter = async (since: string): Promise<Event[]> =>
  (await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE id > ? AND type LIKE 'crm.%' ORDER BY id", [since])).map(
    (row) => JSON.parse(row.body) as Event,
  )
const lastEventId = async () => (await app.context.db.raw.get<{ id: string }>('SELECT max(id) AS id FROM events'))?.id ?? ''
const count = async (table: 'contacts' | 'accounts' | 'leads') =>
  Number((await app.context.db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n)

describe('converting a qualified lead', () => {
  test('into a new contact made of the lead, without an account', async () => {
    const lead = await leadIn('qualified', {
      name: 'Ada Lovelace',
      email: 'Ada@Engine.example',
      phone: '+44 20 7946 0958',
      owner_id: users.agent.user.id,
    })
    const since = await lastEventId()
    app.clock.advance(60_000)
    const result = await converted(lead.id, { account: null, contact: { create: {} } })
    expect(Object.keys(result)).toEqual(['lead', 'contact', 'account'])
    const contact = result.contact!
    expect(contact).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@engine.example',
      phone: '+442079460958',
      contact_type: 'customer',
      account_id: null,
      owner_id: users.agent.user.id,
    })
    expect(contact.id).toMatch(/^con_/)
    expect(result.lead).toEqual({
      ...lead,
      status: 'converted',
      converted_at: iso(),
      converted_contact_id: contact.id,
      converted_account_id: null,
      updated_at: iso(),
    })
    expect(result.account).toBeNull()
    expect(await get(lead.id)).toEqual(result.lead)
    expect((await json<Contact>(await send('GET', `/api/v1/contacts/${contact.id}`))).email).toBe('ada@engine.example')
    const events = await eventsAfter(since)
    expect(events.map((e) => e.type)).toEqual(['crm.contact.created', 'crm.contact.lead_converted'])
    expect(events[0]!.data.contact).toEqual(contact)
    expect(events[1]!.data).toEqual({ lead: result.lead, contact, account: null })
  })

  test('the fields of create win over the lead, and a new account named after the company', async () => {
    const lead = await leadIn('qualified', { name: 'Alan Turing', email: 'alan@bletchley.example', company_name: 'Bletchley Park' })
    const since = await lastEventId()
    const result = await converted(lead.id, {
      account: { create: { domain: 'https://www.Bletchley.example/hut8', size: '51-200' } },
      contact: { create: { name: 'A. M. Turing', contact_type: 'lead', tags: ['Enigma'] } },
    })
    expect(result.account).toMatchObject({ name: 'Bletchley Park', domain: 'bletchley.example' })
    expect(result.contact).toMatchObject({ name: 'A. M. Turing', email: 'alan@bletchley.example', contact_type: 'lead', tags: ['enigma'] })
    expect(result.contact!.account_id).toBe(result.account!.id)
    expect(result.lead).toMatchObject({ converted_contact_id: result.contact!.id, converted_account_id: result.account!.id })
    const events = await eventsAfter(since)
    expect(events.map((e) => e.type)).toEqual(['crm.account.created', 'crm.contact.created', 'crm.contact.lead_converted'])
    expect(events[2]!.data).toEqual(result)
  })

  test('an existing contact of the same e-mail (any case) is used, and linked to the account: crm.contact.updated', async () => {
    const account = await postAccount({ name: 'Navy', domain: 'navy.example' })
    const existing = await postContact({ name: 'Grace', email: 'grace@navy.example', phone: '+14155552671' })
    const lead = await leadIn('qualified', { name: 'Grace Hopper', email: 'GRACE@navy.example' })
    const contacts = await count('contacts')
    const since = await lastEventId()
    const result = await converted(lead.id, { account: { id: account.id }, contact: { create: { name: 'Someone Else' } } })
    expect(await count('contacts')).toBe(contacts)
    expect(result.contact).toMatchObject({ id: existing.id, name: 'Grace', account_id: account.id })
    expect(result.account).toEqual(account)
    const events = await eventsAfter(since)
    expect(events.map((e) => [e.type, e.data.changed])).toEqual([
      ['crm.contact.updated', ['account_id']],
      ['crm.contact.lead_converted', undefined],
    ])
  })

  test('else one of the same phone (any spelling); the e-mail is looked up first', async () => {
    const byPhone = await postContact({ name: 'Phone', phone: '+49 151 12345678' })
    const byEmail = await postContact({ name: 'Mail', email: 'mail@first.example' })
    const phoneLead = await leadIn('qualified', { email: 'nobody@first.example', phone: '+4915112345678' })
    expect((await converted(phoneLead.id, { contact: { create: {} } })).contact!.id).toBe(byPhone.id)
    const both = await leadIn('qualified', { email: 'mail@first.example', phone: '+49 (151) 1234-5678' })
    expect((await converted(both.id, { contact: { create: {} } })).contact!.id).toBe(byEmail.id)
  })

  test('an existing account and contact by id; an account of the same domain is used rather than created', async () => {
    const account = await postAccount({ name: 'Parc', domain: 'parc.example' })
    const contact = await postContact({ name: 'Adele', email: 'adele@parc.example', account_id: account.id })
    const lead = await leadIn('qualified', { email: 'someone@else.example' })
    const since = await lastEventId()
    const result = await converted(lead.id, { account: { create: { name: 'PARC', domain: 'PARC.example.' } }, contact: { id: contact.id } })
    expect(result.account).toEqual(account)
    expect(result.contact).toEqual({ ...contact, updated_at: result.contact!.updated_at })
    expect((await eventsAfter(since)).map((e) => e.type)).toEqual(['crm.contact.lead_converted'])
  })
})

describe('webhooks', () => {
  test('a webhook subscribed to crm.contact.lead_converted gets one delivery of the conversion, and none of a refused one', async () => {
    const hook = await send('POST', '/api/v1/webhooks', users.admin.auth, {
      url: 'https://hooks.example.com/crm',
      events: ['crm.contact.lead_converted'],
      secret: 'a-secret-of-16-chars-or-more',
    })
    expect(hook.status).toBe(201)
    const webhookId = (await json<{ id: string }>(hook)).id
    const deliveries = () =>
      app.context.db.raw.all<{ event_type: string; event_id: string }>(
        'SELECT event_type, event_id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at, id',
        [webhookId],
      )
    const refused = await leadIn('contacted')
    expect((await convert(refused.id, { contact: { create: {} } })).status).toBe(409)
    expect(await deliveries()).toEqual([])
    const lead = await leadIn('qualified', { email: 'hooked@example.com' })
    const since = await lastEventId()
    await converted(lead.id, { contact: { create: {} } })
    const [event] = await app.context.db.raw.all<{ id: string }>(
      "SELECT id FROM events WHERE id > ? AND type = 'crm.contact.lead_converted'",
      [since],
    )
    expect(await deliveries()).toEqual([{ event_type: 'crm.contact.lead_converted', event_id: event!.id }])
  })
})

describe('converting a converted lead', () => {
  test('answers the same 200 with what it was converted into, whatever the body, and changes nothing', async () => {
    const lead = await leadIn('qualified', { email: 'twice@example.com', company_name: 'Twice Inc' })
    const first = await converted(lead.id, { account: { create: {} }, contact: { create: {} } })
    const since = await lastEventId()
    const counts = [await count('contacts'), await count('accounts')]
    app.clock.advance(60_000)
    expect(await converted(lead.id, { account: { create: {} }, contact: { create: {} } })).toEqual(first)
    expect(await converted(lead.id, { account: null, contact: { create: { email: 'other@example.com' } } })).toEqual(first)
    expect([await count('contacts'), await count('accounts')]).toEqual(counts)
    expect(await eventsAfter(since)).toEqual([])
  })

  test('ten conversions at once make one contact and one account, and every answer is the same', async () => {
    const lead = await leadIn('qualified', { email: 'race@example.com', company_name: 'Race Ltd' })
    const since = await lastEventId()
    const body = { account: { create: { domain: 'race.example' } }, contact: { create: {} } }
    const responses = await Promise.all(Array.from({ length: 10 }, () => convert(lead.id, body)))
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200))
    const results = await Promise.all(responses.map((r) => json<Conversion>(r)))
    for (const result of results) expect(result).toEqual(results[0]!)
    const rows = await app.context.db.raw.all('SELECT id FROM contacts WHERE email = ?', ['race@example.com'])
    expect(rows).toEqual([{ id: results[0]!.contact!.id }])
    expect(await app.context.db.raw.all('SELECT id FROM accounts WHERE domain = ?', ['race.example'])).toEqual([
      { id: results[0]!.account!.id },
    ])
    expect((await eventsAfter(since)).map((e) => e.type)).toEqual([
      'crm.account.created',
      'crm.contact.created',
      'crm.contact.lead_converted',
    ])
  })
})

const theirContact = await (async () => {
  const response = await send('POST', '/api/v1/contacts', globex.users.admin.auth, { name: 'Theirs', email: 'theirs@globex.example' })
  return (await json<Contact>(response)).id
})()
const taken = await postContact({ name: 'Taken', email: 'taken@example.com', external_id: 'ext-1' })

describe('refusals change nothing', () => {
  const cases: [string, unknown, number, string, string][] = [
    ['no contact', {}, 400, 'VALIDATION_FAILED', 'contact'],
    ['a contact with neither id nor create', { contact: {} }, 400, 'VALIDATION_FAILED', 'contact'],
    ['a contact with both id and create', { contact: { id: taken.id, create: {} } }, 400, 'VALIDATION_FAILED', 'contact'],
    ['an account with both', { account: { id: 'acc_x', create: {} }, contact: { create: {} } }, 400, 'VALIDATION_FAILED', 'account'],
    ["another organization's contact", { contact: { id: theirContact } }, 400, 'VALIDATION_FAILED', 'contact.id'],
    [
      'an unknown account',
      { account: { id: 'acc_00000000000000000000000000' }, contact: { create: {} } },
      400,
      'VALIDATION_FAILED',
      'account.id',
    ],
    [
      'an account to create without a name, the lead having no company',
      { account: { create: {} }, contact: { create: {} } },
      400,
      'VALIDATION_FAILED',
      'account.create.name',
    ],
    [
      'an invalid account domain',
      { account: { create: { name: 'X', domain: 'not a domain' } }, contact: { create: {} } },
      400,
      'VALIDATION_FAILED',
      'account.create.domain',
    ],
    ['an invalid contact phone', { contact: { create: { phone: '12345' } } }, 400, 'VALIDATION_FAILED', 'contact.create.phone'],
    [
      'an account_id inside the contact',
      { contact: { create: { account_id: 'acc_x' } } },
      400,
      'VALIDATION_FAILED',
      'contact.create.account_id',
    ],
    [
      'an external id another contact has',
      { contact: { create: { email: 'new@example.com', external_id: 'ext-1' } } },
      409,
      'CONFLICT',
      'contact.create.external_id',
    ],
  ]
  test.each(cases)('%s: %d %s naming %s', async (_name, body, status, code, field) => {
    const lead = await leadIn('qualified', { email: 'refused@example.com' })
    const counts = [await count('contacts'), await count('accounts')]
    const since = await lastEventId()
    await expectError(await convert(lead.id, body), status, code, field)
    expect(await get(lead.id)).toEqual(lead)
    expect([await count('contacts'), await count('accounts')]).toEqual(counts)
    expect(await eventsAfter(since)).toEqual([])
  })

  test("another organization's lead and a missing lead: 404", async () => {
    const theirs = await client(app, globex.users.admin.auth).leadIn('qualified')
    await expectError(await convert(theirs.id, { contact: { create: {} } }), 404, 'NOT_FOUND')
    await expectError(await convert('lea_00000000000000000000000000', { contact: { create: {} } }), 404, 'NOT_FOUND')
    expect((await client(app, globex.users.admin.auth).get(theirs.id)).status).toBe('qualified')
  })
})
