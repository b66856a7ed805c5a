// POST /api/v1/contacts/{id}/merge: in one transaction the other contact's tickets and converted leads
// move to the survivor, tags and custom fields are united, the survivor's empty fields take the other's
// values, the other answers 404 from then on, and the events name what happened.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, eventsOf, page } = crmClient(app, users.supervisor.auth)
const iso = () => new Date(app.clock.now()).toISOString()
const merge = (id: string, otherId: string) => send('POST', `/api/v1/contacts/${id}/merge`, { other_id: otherId })
const subjectsOf = async (contactId: string) =>
  (await page<{ subject: string }>(`/api/v1/contacts/${contactId}/tickets?sort=created_at:asc`, 'tickets')).items.map((t) => t.subject)

describe('POST /api/v1/contacts/{id}/merge', () => {
  test('the survivor takes the other’s tickets, tags, custom fields and empty fields; the other is gone', async () => {
    const account = await createAccount()
    const survivor = await createContact({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      tags: ['vip'],
      custom_fields: { plan: 'gold', region: 'us' },
      consent: { email: true },
    })
    const other = await createContact({
      name: 'G. Hopper',
      email: 'g.hopper@example.com',
      phone: '+1 415 555 0142',
      external_id: 'legacy-7',
      contact_type: 'customer',
      account_id: account.id,
      owner_id: users.agent.user.id,
      tags: ['legacy', 'vip'],
      custom_fields: { plan: 'silver', seats: 3 },
      consent: { email: false, marketing: true },
    })
    const consentGiven = iso()
    await send('POST', '/api/v1/tickets', { subject: 'survivor’s', contact_id: survivor.id })
    app.clock.advance(1000)
    await send('POST', '/api/v1/tickets', { subject: 'other’s', contact_id: other.id })
    const otherActiveAt = iso()
    app.clock.advance(1000)

    const response = await merge(survivor.id, other.id)
    expect(response.status).toBe(200)
    const merged = await json<Contact>(response)
    expect(merged).toEqual({
      ...survivor,
      // Kept: the survivor's name, e-mail, its consent on e-mail; taken: what it lacked.
      phone: '+14155550142',
      external_id: 'legacy-7',
      contact_type: 'customer',
      account_id: account.id,
      owner_id: users.agent.user.id,
      tags: ['vip', 'legacy'],
      custom_fields: { plan: 'gold', region: 'us', seats: 3 },
      consent: { email: survivor.consent.email, sms: { granted: false, at: null }, marketing: { granted: true, at: consentGiven } },
      last_activity_at: otherActiveAt,
      updated_at: iso(),
    })
    expect(await subjectsOf(survivor.id)).toEqual(['survivor’s', 'other’s'])
    await expectError(await send('GET', `/api/v1/contacts/${other.id}`), 404, 'NOT_FOUND')
    await expectError(await merge(survivor.id, other.id), 400, 'VALIDATION_FAILED', 'other_id')
    const listed = await page<Contact>('/api/v1/contacts?q=legacy-7', 'contacts')
    expect(listed.items.map((c) => c.id)).toEqual([survivor.id])
    // Its e-mail is free for a new contact; a ticket from it now creates one.
    expect((await createContact({ email: 'g.hopper@example.com' })).email).toBe('g.hopper@example.com')

    const survivorEvents = await eventsOf(survivor.id)
    expect(survivorEvents.at(-1)).toMatchObject({ type: 'crm.contact.updated', data: { contact: merged, merged_ids: [other.id] } })
    expect([...survivorEvents.at(-1)!.data.changed!].sort()).toEqual(
      ['account_id', 'consent', 'contact_type', 'custom_fields', 'external_id', 'last_activity_at', 'owner_id', 'phone', 'tags'].sort(),
    )
    const otherEvents = await eventsOf(other.id)
    expect(otherEvents.map((e) => e.type)).toEqual(['crm.contact.created', 'crm.contact.deleted'])
    // Its last state: as created, plus the activity of its ticket.
    expect(otherEvents[1]!.data).toEqual({ contact: { ...other, last_activity_at: otherActiveAt }, merged_into_id: survivor.id })
  })

  test('leads converted into the other now name the survivor', async () => {
    const survivor = await createContact({ name: 'Survivor' })
    const other = await createContact({ name: 'Other' })
    const now = app.clock.now()
    await app.context.db.raw.run(
      "INSERT INTO leads (id, organization_id, name, name_key, score, status, converted_at, converted_contact_id, created_at, updated_at) VALUES (?, ?, 'L', 'l', 0, 'converted', ?, ?, ?, ?)",
      ['lea_merge_test', acme.org.id, now, other.id, now, now],
    )
    expect((await merge(survivor.id, other.id)).status).toBe(200)
    const lead = await app.context.db.raw.get<{ converted_contact_id: string }>(
      "SELECT converted_contact_id FROM leads WHERE id = 'lea_merge_test'",
    )
    expect(lead!.converted_contact_id).toBe(survivor.id)
  })

  test('merging twice in a chain: the first merged contact follows to the last survivor', async () => {
    const [a, b, c] = [await createContact({ name: 'A' }), await createContact({ name: 'B' }), await createContact({ name: 'C' })]
    expect((await merge(b.id, a.id)).status).toBe(200)
    expect((await merge(c.id, b.id)).status).toBe(200)
    const rows = await app.context.db.raw.all<{ id: string; merged_into_id: string | null }>(
      'SELECT id, merged_into_id FROM contacts WHERE id IN (?, ?, ?) ORDER BY name',
      [a.id, b.id, c.id],
    )
    expect(rows).toEqual([
      { id: a.id, merged_into_id: c.id },
      { id: b.id, merged_into_id: c.id },
      { id: c.id, merged_into_id: null },
    ])
  })

  test('into itself, or a body without other_id: 400; nothing changes', async () => {
    const contact = await createContact({ name: 'Alone' })
    await expectError(await merge(contact.id, contact.id), 400, 'VALIDATION_FAILED', 'other_id')
    await expectError(await send('POST', `/api/v1/contacts/${contact.id}/merge`, {}), 400, 'VALIDATION_FAILED', 'other_id')
    expect((await eventsOf(contact.id)).map((e) => e.type)).toEqual(['crm.contact.created'])
  })
})
