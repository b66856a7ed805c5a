// What the references tests share: an app with one organization, requests as a client sends them, a
// maker for every kind of record that can name a contact or a ticket (each through the API, as a user
// makes it), and the records a user reads back: the record itself, its audit records, its events.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from './helpers/app.ts'
import { seedOrganization } from './helpers/seed.ts'

type Body = Record<string, unknown>

export async function referencesApp() {
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400' })
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  return { app, acme, ...client(app, acme.users.admin.auth) }
}

function client(app: TestApp, auth: Record<string, string>) {
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ok = async <T = Body>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await send(method, path, body)
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300)
    return json<T>(response)
  }
  const id = async (path: string, body: Body) => (await ok<{ id: string }>('POST', path, body)).id
  const make = {
    contact: () => id('/api/v1/contacts', { name: 'Grace Customer' }),
    ticket: (contactId: string | null = null) => id('/api/v1/tickets', { subject: 'Printer on fire', contact_id: contactId }),
    comment: (ticketId: string) => id(`/api/v1/tickets/${ticketId}/comments`, { body: 'On it.' }),
    call: (body: Body) =>
      id('/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', contact_id: null, ...body }),
    /** A session with one inbound message, which the contact wrote. */
    async session(body: Body & { contact_id: string }) {
      const sessionId = await id('/api/v1/engagements', { channel: 'chat', ...body })
      await ok('POST', `/api/v1/engagements/${sessionId}/messages`, { direction: 'in', body: 'Hello?' })
      return sessionId
    },
    survey: async (subject_type: string, subject_id: string) =>
      (await ok<{ response: { id: string } }>('POST', '/api/v1/surveys', { survey_type: 'csat', subject_type, subject_id })).response.id,
    /** A survey that captured the contact, on a call that no longer names it: the survey alone refers to it. */
    async surveyOnly(contactId: string) {
      const callId = await make.call({ contact_id: contactId })
      const surveyId = await make.survey('call', callId)
      await ok('PATCH', `/api/v1/calls/${callId}`, { contact_id: null })
      return surveyId
    },
    async convertedLead(contactId: string) {
      const leadId = await id('/api/v1/leads', { name: 'Lead', status: 'qualified' })
      await ok('POST', `/api/v1/leads/${leadId}/convert`, { contact: { id: contactId } })
      return leadId
    },
    /** Another contact, merged into this one. */
    async mergedContact(contactId: string) {
      const otherId = await make.contact()
      await ok('POST', `/api/v1/contacts/${contactId}/merge`, { other_id: otherId })
      return otherId
    },
  }
  return {
    send,
    ok,
    make,
    /** The audit records of `event` about the record `targetId`, oldest first. */
    async auditOf(event: string, targetId: string): Promise<{ details: Body; actor: { id: string } }[]> {
      const page = await ok<{ audit_logs: { target: { id: string } | null; details: Body; actor: { id: string } }[] }>(
        'GET',
        `/api/v1/audit-logs?event=${event}&sort=created_at:asc&page_size=100`,
      )
      return page.audit_logs.filter((record) => record.target?.id === targetId)
    },
    /** The events about the ticket `ticketId` (data.ticket), in the order they were written. */
    async ticketEvents(ticketId: string): Promise<{ type: string; data: { changed?: string[]; ticket: Body } }[]> {
      const rows = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type LIKE 'ticket.%' ORDER BY id")
      return rows.map((row) => JSON.parse(row.body)).filter((event) => event.data.ticket?.id === ticketId)
    },
  }
}
