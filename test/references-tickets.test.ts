// Deleting a ticket, or an account, that other records name (issue 27), table-driven over every kind of
// record that can name one: what each becomes, as a user reads it back, and how it is recorded. Before:
// a call or a session linked to the ticket made the DELETE a 500 (FOREIGN KEY constraint failed).
import { describe, expect, test } from 'bun:test'
import { expectError } from './helpers/errors.ts'
import { referencesApp } from './references-api.ts'

const { app, acme, send, ok, make, auditOf } = await referencesApp()
const me = acme.users.admin.user.id

const audited = async (event: string, id: string) =>
  expect((await auditOf(event, id)).map((r) => [r.actor.id, r.details])).toContainEqual([
    me,
    { changed: ['ticket_id'], cause: 'ticket.deleted' },
  ])

const TICKET_REFERRERS: {
  kind: string
  make(ticketId: string): Promise<string>
  afterDelete(id: string, ticketId: string): Promise<void>
}[] = [
  {
    kind: 'comment: deleted with it',
    make: (ticketId) => make.comment(ticketId),
    async afterDelete(id) {
      expect(await app.context.db.raw.get('SELECT id FROM ticket_comments WHERE id = ?', [id])).toBeUndefined()
    },
  },
  {
    kind: 'upload attached to it: deleted with it',
    async make(ticketId) {
      const upload = await app.request('/api/v1/uploads?purpose=attachment&filename=note.txt', {
        method: 'POST',
        headers: { ...acme.users.admin.auth, 'content-type': 'application/octet-stream' },
        body: 'a note',
      })
      const { id } = (await upload.json()) as { id: string }
      await ok('POST', `/api/v1/tickets/${ticketId}/comments`, { body: 'See the note.', upload_ids: [id] })
      return id
    },
    async afterDelete(id) {
      expect((await ok('GET', `/api/v1/uploads/${id}`)).status).toBe('deleted')
    },
  },
  {
    kind: 'call: lets go of it',
    make: (ticketId) => make.call({ ticket_id: ticketId }),
    async afterDelete(id) {
      expect((await ok('GET', `/api/v1/calls/${id}`)).ticket_id).toBeNull()
      await audited('call.updated', id)
    },
  },
  {
    kind: 'engagement session: lets go of it',
    make: async (ticketId) => make.session({ contact_id: await make.contact(), ticket_id: ticketId }),
    async afterDelete(id) {
      expect((await ok('GET', `/api/v1/engagements/${id}`)).ticket_id).toBeNull()
      await audited('engagement.updated', id)
    },
  },
  {
    kind: 'survey response: stays, naming the ticket it rated',
    make: (ticketId) => make.survey('ticket', ticketId),
    async afterDelete(id, ticketId) {
      expect(await ok('GET', `/api/v1/survey-responses/${id}`)).toMatchObject({ subject_type: 'ticket', subject_id: ticketId })
    },
  },
]

describe('DELETE /api/v1/tickets/{id}: 204, and each record naming it', () => {
  const deleted = async (ticketId: string) => {
    expect((await send('DELETE', `/api/v1/tickets/${ticketId}`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/tickets/${ticketId}`), 404, 'NOT_FOUND')
  }

  test.each(TICKET_REFERRERS.map((k) => [k.kind, k] as const))('%s', async (_, kind) => {
    const ticketId = await make.ticket()
    const id = await kind.make(ticketId)
    await deleted(ticketId)
    await kind.afterDelete(id, ticketId)
  })

  test('named by one record of every kind at once', async () => {
    const ticketId = await make.ticket()
    const ids = await Promise.all(TICKET_REFERRERS.map((k) => k.make(ticketId)))
    await deleted(ticketId)
    for (const [i, kind] of TICKET_REFERRERS.entries()) await kind.afterDelete(ids[i]!, ticketId)
  })
})

describe('DELETE /api/v1/accounts/{id} named by a contact and a lead converted into it', () => {
  test('409 while the contact belongs to it; ?cascade=detach keeps the contact without it; the lead keeps its record', async () => {
    const accountId = (await ok<{ id: string }>('POST', '/api/v1/accounts', { name: 'Acme' })).id
    const contactId = (await ok<{ id: string }>('POST', '/api/v1/contacts', { name: 'Grace', account_id: accountId })).id
    const leadId = (await ok<{ id: string }>('POST', '/api/v1/leads', { name: 'Lead', status: 'qualified' })).id
    await ok('POST', `/api/v1/leads/${leadId}/convert`, { account: { id: accountId }, contact: { id: contactId } })
    await expectError(await send('DELETE', `/api/v1/accounts/${accountId}`), 409, 'CONFLICT')
    expect((await send('DELETE', `/api/v1/accounts/${accountId}?cascade=detach`)).status).toBe(204)
    expect((await ok('GET', `/api/v1/contacts/${contactId}`)).account_id).toBeNull()
    expect((await ok('GET', `/api/v1/leads/${leadId}`)).converted_account_id).toBe(accountId)
  })
})
