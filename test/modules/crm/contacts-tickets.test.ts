// Tickets and contacts: a ticket's requester finds or creates the contact of that e-mail in the ticket's
// transaction, contact_id links one directly, the contact's last_activity_at follows its new tickets,
// GET /contacts/{id}/tickets lists them under the tickets' visibility, and deleting a contact keeps them.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createContact, eventsOf, page } = crmClient(app, users.supervisor.auth)
const iso = () => new Date(app.clock.now()).toISOString()

interface Ticket {
  id: string
  subject: string
  requester: { name: string; email: string } | null
  contact_id: string | null
  assignee_id: string | null
}
const createTicket = async (body: Record<string, unknown>, auth = users.supervisor.auth): Promise<Ticket> => {
  const response = await send('POST', '/api/v1/tickets', { subject: 'Help', ...body }, auth)
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201)
  return json<Ticket>(response)
}
const contactByEmail = async (email: string) =>
  (await page<Contact>(`/api/v1/contacts?q=${encodeURIComponent(email)}`, 'contacts')).items.filter((c) => c.email === email)
const getContact = async (id: string) => json<Contact>(await send('GET', `/api/v1/contacts/${id}`))
const ticketsOf = async (contactId: string, auth = users.supervisor.auth, query = '') =>
  (await page<Ticket>(`/api/v1/contacts/${contactId}/tickets${query}`, 'tickets', auth)).items.map((t) => t.subject)

describe('a ticket with a requester', () => {
  test('creates the contact of a new e-mail, announced before the ticket, and links it', async () => {
    app.clock.advance(1000)
    const ticket = await createTicket({ subject: 'First', requester: { name: 'Nina New', email: 'Nina@Example.com' } }, users.agent.auth)
    const [contact] = await contactByEmail('nina@example.com')
    expect(contact).toMatchObject({
      name: 'Nina New',
      email: 'nina@example.com',
      contact_type: 'visitor',
      owner_id: null,
      last_activity_at: iso(),
    })
    expect(ticket.contact_id).toBe(contact!.id)
    const types = (await app.context.db.raw.all<{ type: string; body: string }>('SELECT type, body FROM events ORDER BY id'))
      .filter((e) => e.body.includes(contact!.id) || e.body.includes(ticket.id))
      .map((e) => e.type)
    expect(types).toEqual(['crm.contact.created', 'ticket.created'])
  })

  test('finds the contact of a known e-mail, in any case: no second contact; its last activity moves, nothing else', async () => {
    const contact = await createContact({ name: 'Kim Known', email: 'kim@example.com' })
    app.clock.advance(5000)
    const ticket = await createTicket({ requester: { name: 'Someone Else', email: 'KIM@example.com' } })
    expect(ticket.contact_id).toBe(contact.id)
    expect(await contactByEmail('kim@example.com')).toHaveLength(1)
    expect(await getContact(contact.id)).toMatchObject({ ...contact, account: null, last_activity_at: iso() })
    // Activity is not a change of the record: no crm.contact.updated.
    expect((await eventsOf(contact.id)).map((e) => e.type)).toEqual(['crm.contact.created'])
  })

  test('a ticket refused for another reason leaves no contact behind (one transaction)', async () => {
    await expectError(
      await send('POST', '/api/v1/tickets', {
        subject: 'Help',
        requester: { name: 'Rolled Back', email: 'rollback@example.com' },
        assignee_id: globex.users.agent.user.id,
      }),
      400,
      'VALIDATION_FAILED',
      'assignee_id',
    )
    expect(await contactByEmail('rollback@example.com')).toEqual([])
  })
})

describe('a ticket with contact_id', () => {
  test('links that contact, takes its name and e-mail as the requester, and moves its last activity', async () => {
    const contact = await createContact({ name: 'Carla Direct', email: 'carla@example.com' })
    app.clock.advance(1000)
    const ticket = await createTicket({ contact_id: contact.id })
    expect(ticket).toMatchObject({ contact_id: contact.id, requester: { name: 'Carla Direct', email: 'carla@example.com' } })
    expect((await getContact(contact.id)).last_activity_at).toBe(iso())
  })

  test('wins over the requester, which stays as given; a contact without e-mail leaves the requester empty; null links none', async () => {
    const contact = await createContact({ name: 'Phone Only', phone: '+14155550177' })
    const withRequester = await createTicket({ contact_id: contact.id, requester: { name: 'Assistant', email: 'assistant@example.com' } })
    expect(withRequester).toMatchObject({ contact_id: contact.id, requester: { name: 'Assistant', email: 'assistant@example.com' } })
    expect(await contactByEmail('assistant@example.com')).toEqual([])
    expect(await createTicket({ contact_id: contact.id })).toMatchObject({ contact_id: contact.id, requester: null })
    // contact_id null: no contact, whoever the requester.
    const unlinked = await createTicket({ contact_id: null, requester: { name: 'Nobody', email: 'unlinked@example.com' } })
    expect(unlinked.contact_id).toBeNull()
    expect(await contactByEmail('unlinked@example.com')).toEqual([])
  })

  test("another organization's contact, or none: 400 naming contact_id, nothing written", async () => {
    const theirs = await createContact({}, globex.users.admin.auth)
    const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM tickets')
    for (const id of [theirs.id, 'con_00000000000000000000000000'])
      await expectError(await send('POST', '/api/v1/tickets', { subject: 'Help', contact_id: id }), 400, 'VALIDATION_FAILED', 'contact_id')
    expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM tickets')).toEqual(before!)
  })

  test('PATCH: contact_id links another contact or none; a new requester e-mail links (or creates) its contact', async () => {
    const [first, second] = [await createContact({ name: 'First' }), await createContact({ name: 'Second' })]
    const ticket = await createTicket({ contact_id: first.id })
    const patch = async (body: unknown) => json<Ticket>(await send('PATCH', `/api/v1/tickets/${ticket.id}`, body))
    expect((await patch({ contact_id: second.id })).contact_id).toBe(second.id)
    expect((await patch({ contact_id: null })).contact_id).toBeNull()
    const relinked = await patch({ requester: { name: 'Pat Patch', email: 'pat@example.com' } })
    const [pat] = await contactByEmail('pat@example.com')
    expect(relinked.contact_id).toBe(pat!.id)
    await expectError(
      await send('PATCH', `/api/v1/tickets/${ticket.id}`, { contact_id: 'con_00000000000000000000000000' }),
      400,
      'VALIDATION_FAILED',
      'contact_id',
    )
  })
})

describe('GET /api/v1/contacts/{id}/tickets', () => {
  test("lists the contact's tickets newest first, in pages, and the tickets list filters by contact_id alike", async () => {
    const contact = await createContact({ name: 'Many Tickets', email: 'many@example.com' })
    for (const subject of ['one', 'two', 'three']) {
      app.clock.advance(1000)
      await createTicket({ subject, requester: { name: 'Many', email: 'many@example.com' } })
    }
    await createTicket({ subject: 'not theirs' })
    expect(await ticketsOf(contact.id)).toEqual(['three', 'two', 'one'])
    expect(await ticketsOf(contact.id, users.viewer.auth, '?sort=created_at:asc')).toEqual(['one', 'two', 'three'])
    const first = await page<Ticket>(`/api/v1/contacts/${contact.id}/tickets?page_size=2&include_total=true`, 'tickets')
    expect([first.items.length, first.total]).toEqual([2, 3])
    const second = await page<Ticket>(`/api/v1/contacts/${contact.id}/tickets?page_size=2&page_token=${first.next}`, 'tickets')
    expect(second.items.map((t) => t.subject)).toEqual(['one'])
    const filtered = await page<Ticket>(`/api/v1/tickets?contact_id=${contact.id}`, 'tickets')
    expect(filtered.items.map((t) => t.subject)).toEqual(['three', 'two', 'one'])
    // A token of one contact's tickets is refused on another's.
    const other = await createContact()
    await expectError(
      await send('GET', `/api/v1/contacts/${other.id}/tickets?page_size=2&page_token=${first.next}`),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })

  test("an agent sees the contact's tickets it may see: its own and the unassigned", async () => {
    const contact = await createContact({ name: 'Visibility', email: 'visible@example.com' })
    const requester = { name: 'V', email: 'visible@example.com' }
    await createTicket({ subject: 'unassigned', requester })
    await createTicket({ subject: 'the agent’s', requester, assignee_id: users.agent.user.id })
    await createTicket({ subject: 'the supervisor’s', requester, assignee_id: users.supervisor.user.id })
    expect(await ticketsOf(contact.id, users.agent.auth)).toEqual(['the agent’s', 'unassigned'])
    expect(await ticketsOf(contact.id, users.viewer.auth)).toEqual(['the supervisor’s', 'the agent’s', 'unassigned'])
  })

  test('a contact without tickets lists none; a deleted contact is 404 and its tickets stay, without it', async () => {
    const contact = await createContact({ name: 'Leaving', email: 'leaving@example.com' })
    expect(await ticketsOf(contact.id)).toEqual([])
    const ticket = await createTicket({ requester: { name: 'Leaving', email: 'leaving@example.com' } })
    expect((await send('DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/contacts/${contact.id}/tickets`), 404, 'NOT_FOUND')
    expect(await json<Ticket>(await send('GET', `/api/v1/tickets/${ticket.id}`))).toMatchObject({
      contact_id: null,
      requester: { name: 'Leaving', email: 'leaving@example.com' },
    })
  })
})
