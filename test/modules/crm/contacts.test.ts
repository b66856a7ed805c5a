// Contacts through the API: create and its validation (E.164 phones, identifiers unique per
// organization whatever their spelling), consent given and withdrawn with its times, GET with the
// account embedded, PATCH semantics, delete, and the crm.contact.* events with the full contact.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, eventsOf } = crmClient(app, users.supervisor.auth)
const iso = () => new Date(app.clock.now()).toISOString()
type WithAccount = Contact & { account: unknown }
const getContact = async (id: string) => json<WithAccount>(await send('GET', `/api/v1/contacts/${id}`))
const withoutAccount = ({ account: _account, ...contact }: WithAccount): Contact => contact
const NEVER = { granted: false, at: null }

describe('POST /api/v1/contacts', () => {
  test('201 with exactly the contact fields and the defaults; GET adds the account', async () => {
    const response = await send('POST', '/api/v1/contacts', { name: ' Ada Lovelace ' })
    expect(response.status).toBe(201)
    const contact = await json<Contact>(response)
    expect(Object.keys(contact)).toEqual([
      'id',
      'name',
      'email',
      'phone',
      'external_id',
      'contact_type',
      'account_id',
      'owner_id',
      'blocked',
      'consent',
      'tags',
      'custom_fields',
      'last_activity_at',
      'created_at',
      'updated_at',
    ])
    expect(contact).toEqual({
      id: expect.stringMatching(/^con_[0-9A-Z]{26}$/),
      name: 'Ada Lovelace',
      email: null,
      phone: null,
      external_id: null,
      contact_type: 'visitor',
      account_id: null,
      owner_id: null,
      blocked: false,
      consent: { email: NEVER, sms: NEVER, marketing: NEVER },
      tags: [],
      custom_fields: {},
      last_activity_at: null,
      created_at: iso(),
      updated_at: iso(),
    })
    expect(await getContact(contact.id)).toEqual({ ...contact, account: null })
  })

  test('every field given is kept: e-mail lowercased, phone in E.164, the account embedded on GET', async () => {
    const account = await createAccount({ name: 'Example Corp', domain: 'example.com' })
    const contact = await createContact({
      email: 'Grace@Example.COM',
      phone: '+1 (415) 555-0123',
      external_id: 'CRM-4711',
      contact_type: 'customer',
      account_id: account.id,
      owner_id: users.agent.user.id,
      blocked: true,
      consent: { email: true, sms: false },
      tags: ['VIP', 'vip'],
      custom_fields: { plan: 'gold' },
    })
    expect(contact).toMatchObject({
      email: 'grace@example.com',
      phone: '+14155550123',
      external_id: 'CRM-4711',
      contact_type: 'customer',
      account_id: account.id,
      owner_id: users.agent.user.id,
      blocked: true,
      consent: { email: { granted: true, at: iso() }, sms: { granted: false, at: iso() }, marketing: NEVER },
      tags: ['vip'],
      custom_fields: { plan: 'gold' },
    })
    expect(await getContact(contact.id)).toEqual({ ...contact, account })
  })

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['no name', { name: undefined }, 'name'],
    ['a blank name', { name: ' ' }, 'name'],
    ['a malformed e-mail', { email: 'grace-at-example' }, 'email'],
    ['a phone without its country code', { phone: '020 7946 0958' }, 'phone'],
    ['a phone too short to be one', { phone: '+4420' }, 'phone'],
    ['a phone with letters', { phone: '+1 415 CALL NOW' }, 'phone'],
    ['a phone with an extension', { phone: '+1 415 555 2671 ext. 5' }, 'phone'],
    ['an unknown type', { contact_type: 'prospect' }, 'contact_type'],
    ['an account of another organization', { account_id: 'from-globex' }, 'account_id'],
    ['an account that does not exist', { account_id: 'acc_00000000000000000000000000' }, 'account_id'],
    ['an owner of another organization', { owner_id: globex.users.agent.user.id }, 'owner_id'],
    ['consent that is not a boolean', { consent: { email: 'yes' } }, 'consent'],
    ['consent on an unknown channel', { consent: { fax: true } }, 'consent'],
    ['last_activity_at, which is read-only', { last_activity_at: '2026-01-01T00:00:00Z' }, 'last_activity_at'],
    ['21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
  ]
  const theirAccount = createAccount({}, globex.users.admin.auth)
  for (const [what, body, field] of invalid)
    test(`${what}: 400 naming ${field}, nothing written`, async () => {
      const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts')
      const sent = body.account_id === 'from-globex' ? { ...body, account_id: (await theirAccount).id } : body
      const error = await expectError(await send('POST', '/api/v1/contacts', { name: 'X', ...sent }), 400, 'VALIDATION_FAILED', field)
      if (field === 'phone') expect(error.errors![0]!.message).toContain('country code')
      if (field === 'last_activity_at') expect(error.errors![0]!.message).toContain('read-only')
      expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts')).toEqual(before!)
    })

  test('the same e-mail in another case: 409 CONFLICT naming email and the contact that has it', async () => {
    const first = await createContact({ email: 'dup@example.com' })
    const body = await expectError(
      await send('POST', '/api/v1/contacts', { name: 'Copy', email: 'DUP@Example.com' }),
      409,
      'CONFLICT',
      'email',
    )
    expect(body.errors).toEqual([{ field: 'email', message: `is already the email of contact ${first.id}` }])
  })

  test('the same phone in two spellings: 409 naming phone', async () => {
    await createContact({ phone: '+44 20 7946 0958' })
    await expectError(await send('POST', '/api/v1/contacts', { name: 'Copy', phone: '+442079460958' }), 409, 'CONFLICT', 'phone')
  })

  test('the same external id: 409; another case of it is another id', async () => {
    await createContact({ external_id: 'ext-1' })
    await expectError(await send('POST', '/api/v1/contacts', { name: 'Copy', external_id: 'ext-1' }), 409, 'CONFLICT', 'external_id')
    expect((await createContact({ external_id: 'EXT-1' })).external_id).toBe('EXT-1')
  })

  test('several identifiers taken at once: each named', async () => {
    await createContact({ email: 'both@example.com', phone: '+14155550199' })
    const body = await expectError(
      await send('POST', '/api/v1/contacts', { name: 'Copy', email: 'both@example.com', phone: '+1 415 555 0199' }),
      409,
      'CONFLICT',
    )
    expect(body.errors!.map((e) => e.field)).toEqual(['email', 'phone'])
  })

  test('another organization may have the same identifiers', async () => {
    await createContact({ email: 'shared@example.com', phone: '+14155550100', external_id: 'shared' })
    const theirs = await createContact(
      { email: 'shared@example.com', phone: '+14155550100', external_id: 'shared' },
      globex.users.admin.auth,
    )
    expect(theirs.email).toBe('shared@example.com')
  })
})

describe('PATCH /api/v1/contacts/{id}', () => {
  test('changes only what is given; crm.contact.updated names exactly the changed fields', async () => {
    const contact = await createContact({ email: 'patch@example.com', tags: ['a'] })
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/contacts/${contact.id}`, {
      name: 'Renamed',
      email: 'PATCH@example.com',
      phone: '+49 151 12345678',
      blocked: false,
      contact_type: 'lead',
      tags: ['a', 'B'],
    })
    expect(response.status).toBe(200)
    const after = await json<Contact>(response)
    expect(after).toEqual({
      ...contact,
      name: 'Renamed',
      phone: '+4915112345678',
      contact_type: 'lead',
      tags: ['a', 'b'],
      updated_at: iso(),
    })
    expect(withoutAccount(await getContact(contact.id))).toEqual(after)
    const events = await eventsOf(contact.id)
    expect(events.map((e) => [e.type, e.data.changed && [...e.data.changed].sort()])).toEqual([
      ['crm.contact.created', undefined],
      ['crm.contact.updated', ['contact_type', 'name', 'phone', 'tags']],
    ])
    expect(events[1]!.data.contact).toEqual(after)
  })

  test('a PATCH that changes nothing answers the contact and writes nothing', async () => {
    const contact = await createContact({ phone: '+14155550111', consent: { email: true } })
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/contacts/${contact.id}`, { phone: '+1 415-555-0111', consent: { email: true } })
    expect(await json<Contact>(response)).toEqual(contact)
    expect((await eventsOf(contact.id)).map((e) => e.type)).toEqual(['crm.contact.created'])
  })

  test('consent: giving or withdrawing moves that channel’s time; giving again what was given keeps it', async () => {
    const contact = await createContact({ consent: { email: true } })
    const given = iso()
    app.clock.advance(60_000)
    const after = await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { consent: { email: true, marketing: true } }))
    expect(after.consent).toEqual({ email: { granted: true, at: given }, sms: NEVER, marketing: { granted: true, at: iso() } })
    app.clock.advance(60_000)
    const withdrawn = await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { consent: { marketing: false } }))
    expect(withdrawn.consent.marketing).toEqual({ granted: false, at: iso() })
    expect(withdrawn.consent.email).toEqual({ granted: true, at: given })
  })

  test("another contact's identifier: 409 naming it, nothing changes; null clears one, freeing it", async () => {
    const holder = await createContact({ email: 'holder@example.com' })
    const contact = await createContact({ email: 'mine@example.com' })
    await expectError(await send('PATCH', `/api/v1/contacts/${contact.id}`, { email: 'Holder@example.com' }), 409, 'CONFLICT', 'email')
    expect((await getContact(contact.id)).email).toBe('mine@example.com')
    expect((await json<Contact>(await send('PATCH', `/api/v1/contacts/${holder.id}`, { email: null }))).email).toBeNull()
    expect((await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { email: 'holder@example.com' }))).email).toBe(
      'holder@example.com',
    )
  })

  test('an empty body, a bad phone, an account of another organization: 400; read-only last_activity_at: 400', async () => {
    const contact = await createContact()
    const theirs = await createAccount({}, globex.users.admin.auth)
    await expectError(await send('PATCH', `/api/v1/contacts/${contact.id}`, {}), 400, 'VALIDATION_FAILED')
    await expectError(await send('PATCH', `/api/v1/contacts/${contact.id}`, { phone: 'call me' }), 400, 'VALIDATION_FAILED', 'phone')
    await expectError(
      await send('PATCH', `/api/v1/contacts/${contact.id}`, { account_id: theirs.id }),
      400,
      'VALIDATION_FAILED',
      'account_id',
    )
    await expectError(
      await send('PATCH', `/api/v1/contacts/${contact.id}`, { last_activity_at: null }),
      400,
      'VALIDATION_FAILED',
      'last_activity_at',
    )
    expect(withoutAccount(await getContact(contact.id))).toEqual(contact)
  })

  test("another organization's contact, or none: 404 on every route, even for its Super Admin", async () => {
    const theirs = await createContact({}, globex.users.admin.auth)
    const mine = await createContact()
    for (const id of [theirs.id, 'con_00000000000000000000000000']) {
      const auth = users.super_admin.auth
      await expectError(await send('GET', `/api/v1/contacts/${id}`, undefined, auth), 404, 'NOT_FOUND')
      await expectError(await send('PATCH', `/api/v1/contacts/${id}`, { name: 'Mine' }, auth), 404, 'NOT_FOUND')
      await expectError(await send('DELETE', `/api/v1/contacts/${id}`, undefined, auth), 404, 'NOT_FOUND')
      await expectError(await send('GET', `/api/v1/contacts/${id}/tickets`, undefined, auth), 404, 'NOT_FOUND')
      await expectError(await send('POST', `/api/v1/contacts/${id}/merge`, { other_id: mine.id }, auth), 404, 'NOT_FOUND')
    }
    // Nor is it a contact to merge: 400 naming other_id, and both stay.
    await expectError(
      await send('POST', `/api/v1/contacts/${mine.id}/merge`, { other_id: theirs.id }),
      400,
      'VALIDATION_FAILED',
      'other_id',
    )
    expect((await send('GET', `/api/v1/contacts/${theirs.id}`, undefined, globex.users.viewer.auth)).status).toBe(200)
  })
})

describe('DELETE /api/v1/contacts/{id}', () => {
  test('204; the contact is gone and its e-mail free again; crm.contact.deleted carries its last state', async () => {
    const contact = await createContact({ email: 'gone@example.com', tags: ['x'] })
    expect((await send('DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/contacts/${contact.id}`), 404, 'NOT_FOUND')
    await expectError(await send('DELETE', `/api/v1/contacts/${contact.id}`), 404, 'NOT_FOUND')
    const events = await eventsOf(contact.id)
    expect(events.map((e) => e.type)).toEqual(['crm.contact.created', 'crm.contact.deleted'])
    expect(events[1]!.data).toEqual({ contact })
    expect((await createContact({ email: 'gone@example.com' })).email).toBe('gone@example.com')
  })

  test('a viewer may not create, change or delete: 403, and nothing changes', async () => {
    const contact = await createContact()
    const auth = users.viewer.auth
    await expectError(await send('POST', '/api/v1/contacts', { name: 'V' }, auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('PATCH', `/api/v1/contacts/${contact.id}`, { name: 'V' }, auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('DELETE', `/api/v1/contacts/${contact.id}`, undefined, auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await send('POST', `/api/v1/contacts/${contact.id}/merge`, { other_id: contact.id }, auth),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect(withoutAccount(await getContact(contact.id))).toEqual(contact)
  })
})
