// Deleting and merging a record that others name (issue 27), table-driven over every kind of record that
// can name a contact or a ticket: what each becomes, as a user reads it back, and how it is recorded.
// Before: a call or a session naming the contact (or ticket) made the DELETE a 500 (FOREIGN KEY
// constraint failed), and a merge left the other's calls, sessions and survey responses behind.
import { describe, expect, test } from 'bun:test'
import { expectError } from './helpers/errors.ts'
import { referencesApp } from './references-api.ts'

const { app, acme, send, ok, make, auditOf, ticketEvents } = await referencesApp()
const me = acme.users.admin.user.id

interface Kind {
  kind: string
  make(contactId: string): Promise<string>
  /** What the user reads of it after the contact is deleted (not called for a kind that refuses). */
  afterDelete?(id: string, contactId: string): Promise<void>
  afterMerge(id: string, survivorId: string, otherId: string): Promise<void>
}

const audited = async (event: string, id: string, cause: string, field: string) =>
  expect((await auditOf(event, id)).map((r) => [r.actor.id, r.details])).toContainEqual([me, { changed: [field], cause }])

const CONTACT_REFERRERS: Kind[] = [
  {
    kind: 'ticket',
    make: (contactId) => make.ticket(contactId),
    async afterDelete(id) {
      expect((await ok('GET', `/api/v1/tickets/${id}`)).contact_id).toBeNull()
      expect((await ticketEvents(id)).at(-1)).toMatchObject({ type: 'ticket.updated', data: { changed: ['contact_id'] } })
    },
    async afterMerge(id, survivorId) {
      expect((await ok('GET', `/api/v1/tickets/${id}`)).contact_id).toBe(survivorId)
      expect((await ticketEvents(id)).at(-1)).toMatchObject({ type: 'ticket.updated', data: { changed: ['contact_id'] } })
    },
  },
  {
    kind: 'call',
    make: (contactId) => make.call({ contact_id: contactId }),
    async afterDelete(id) {
      expect((await ok('GET', `/api/v1/calls/${id}`)).contact_id).toBeNull()
      await audited('call.updated', id, 'contact.deleted', 'contact_id')
    },
    async afterMerge(id, survivorId) {
      expect((await ok('GET', `/api/v1/calls/${id}`)).contact_id).toBe(survivorId)
      await audited('call.updated', id, 'contact.merged', 'contact_id')
    },
  },
  {
    kind: 'engagement session',
    make: (contactId) => make.session({ contact_id: contactId }),
    async afterMerge(id, survivorId) {
      expect((await ok('GET', `/api/v1/engagements/${id}`)).contact_id).toBe(survivorId)
      const messages = await ok<{ messages: { author: unknown }[] }>('GET', `/api/v1/engagements/${id}/messages`)
      expect(messages.messages.map((m) => m.author)).toEqual([{ type: 'contact', id: survivorId }])
      await audited('engagement.updated', id, 'contact.merged', 'contact_id')
    },
  },
  {
    kind: 'survey response',
    make: (contactId) => make.surveyOnly(contactId),
    async afterDelete(id) {
      expect(await ok('GET', `/api/v1/survey-responses/${id}`)).toMatchObject({ contact_id: null, status: 'offered' })
    },
    async afterMerge(id, survivorId) {
      expect((await ok('GET', `/api/v1/survey-responses/${id}`)).contact_id).toBe(survivorId)
    },
  },
  {
    kind: 'lead converted into it',
    make: (contactId) => make.convertedLead(contactId),
    async afterDelete(id, contactId) {
      // The record of the conversion keeps the id it made (the README: "contact is null only if it was deleted since").
      expect((await ok('GET', `/api/v1/leads/${id}`)).converted_contact_id).toBe(contactId)
    },
    async afterMerge(id, survivorId) {
      expect((await ok('GET', `/api/v1/leads/${id}`)).converted_contact_id).toBe(survivorId)
    },
  },
  {
    kind: 'contact merged into it',
    make: (contactId) => make.mergedContact(contactId),
    async afterDelete(id) {
      await expectError(await send('GET', `/api/v1/contacts/${id}`), 404, 'NOT_FOUND')
    },
    async afterMerge(id, survivorId) {
      // Not readable (404): the merged id stays on record, now pointing at the last survivor.
      const row = await app.context.db.raw.get<{ merged_into_id: string }>('SELECT merged_into_id FROM contacts WHERE id = ?', [id])
      expect(row?.merged_into_id).toBe(survivorId)
    },
  },
]

const SESSION_REFUSAL =
  'The contact has 1 engagement session that cannot exist without it: merge it into another contact to keep them there (POST /api/v1/contacts/{that contact}/merge with this one as other_id)'

describe('DELETE /api/v1/contacts/{id} of a contact named by one kind of record', () => {
  test.each(CONTACT_REFERRERS.map((k) => [k.kind, k] as const))('%s', async (_, kind) => {
    const contactId = await make.contact()
    const id = await kind.make(contactId)
    const response = await send('DELETE', `/api/v1/contacts/${contactId}`)
    if (!kind.afterDelete) {
      expect((await expectError(response, 409, 'CONFLICT')).message).toBe(SESSION_REFUSAL)
      expect((await ok('GET', `/api/v1/engagements/${id}`)).contact_id).toBe(contactId)
      expect((await ok('GET', `/api/v1/contacts/${contactId}`)).id).toBe(contactId)
      return
    }
    expect(response.status).toBe(204)
    await expectError(await send('GET', `/api/v1/contacts/${contactId}`), 404, 'NOT_FOUND')
    await kind.afterDelete(id, contactId)
  })
})

describe('a contact named by one record of every kind', () => {
  const everyKind = async (contactId: string) => Promise.all(CONTACT_REFERRERS.map((k) => k.make(contactId)))

  test('DELETE is refused by its session, naming it; nothing else changed', async () => {
    const contactId = await make.contact()
    const [ticketId, callId] = await everyKind(contactId)
    expect((await expectError(await send('DELETE', `/api/v1/contacts/${contactId}`), 409, 'CONFLICT')).message).toBe(SESSION_REFUSAL)
    expect((await ok('GET', `/api/v1/tickets/${ticketId}`)).contact_id).toBe(contactId)
    expect((await ok('GET', `/api/v1/calls/${callId}`)).contact_id).toBe(contactId)
  })

  test('a merge moves every one of them to the survivor, each recorded by its module', async () => {
    const [survivorId, otherId] = [await make.contact(), await make.contact()]
    const ids = await everyKind(otherId)
    await ok('POST', `/api/v1/contacts/${survivorId}/merge`, { other_id: otherId })
    for (const [i, kind] of CONTACT_REFERRERS.entries()) await kind.afterMerge(ids[i]!, survivorId, otherId)
    // The survivor now has the session: deleting it is refused in turn.
    await expectError(await send('DELETE', `/api/v1/contacts/${survivorId}`), 409, 'CONFLICT')
  })
})
