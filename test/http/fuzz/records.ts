// The route fuzzer's organization: one record of every kind, each made through the API with a Super
// Admin's token (a draft invoice with the operator's) and naming the others where it can (a ticket of the
// contact, a call of both, a session of all three...), so that deletes and merges meet every reference.
// Ids by kind, for path parameters.
import { expect } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { createOperatorToken } from '../../../src/modules/operators/index.ts'
import type { TestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'
import { wavFile } from '../../modules/calls/calls-api.ts'

export type Ids = Record<string, string>

/** What the seeding reads of the API's answers. */
type Answer = { id: string; key: string; url: string; response: { id: string }; deliveries: { id: string }[]; sessions: { id: string }[] }

export async function seedEveryKind(app: TestApp) {
  const acme = await seedOrganization(app, 'acme')
  const root = acme.users.super_admin
  // The operator routes (billing's /api/v1/operator/…) take the operator's token, not an organization's.
  const operator = {
    authorization: `Bearer ${(await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'fuzz' })).token}`,
  }
  const send = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const raw = body instanceof Uint8Array || typeof body === 'string'
    const response = await app.request(path, {
      method,
      headers: {
        ...(path.startsWith('/api/v1/operator/') ? operator : root.auth),
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    })
    const text = await response.text()
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300)
    return (text === '' ? {} : JSON.parse(text)) as Answer
  }
  const id = async (path: string, body: unknown, type?: string) => (await send('POST', path, body, type)).id

  const ids: Ids = { org: acme.org.id, user: acme.users.agent.user.id }
  ids.account = await id('/api/v1/accounts', { name: 'Acme Corp', domain: 'acme.example' })
  ids.contact = await id('/api/v1/contacts', { name: 'Grace', email: 'grace@acme.example', phone: '+14155550123', account_id: ids.account })
  ids.lead = await id('/api/v1/leads', { name: 'Lead', status: 'qualified', email: 'lead@acme.example' })
  ids.upload = await id('/api/v1/uploads?purpose=attachment&filename=note.txt', 'a note', 'application/octet-stream')
  ids.ticket = await id('/api/v1/tickets', { subject: 'Printer on fire', contact_id: ids.contact, assignee_id: ids.user })
  ids.comment = await id(`/api/v1/tickets/${ids.ticket}/comments`, { body: 'On it.', upload_ids: [ids.upload] })
  ids.call = await id('/api/v1/calls', { direction: 'inbound', from: '+14155550123', to: '+14155550199', ticket_id: ids.ticket })
  ids.recording = await id(`/api/v1/calls/${ids.call}/recordings?filename=a.wav`, wavFile(0.2), 'audio/wav')
  ids.engagement = await id('/api/v1/engagements', { contact_id: ids.contact, channel: 'chat', ticket_id: ids.ticket, call_id: ids.call })
  ids.message = await id(`/api/v1/engagements/${ids.engagement}/messages`, { direction: 'in', body: 'Hello?' })
  // A second contact named by records of its own: a merge (other_id is given every seeded id) moves them.
  ids.other_contact = await id('/api/v1/contacts', { name: 'Ada', email: 'ada@acme.example' })
  const otherCall = await id('/api/v1/calls', {
    direction: 'outbound',
    from: '+14155550199',
    to: '+14155550124',
    contact_id: ids.other_contact,
  })
  await id('/api/v1/engagements', { contact_id: ids.other_contact, channel: 'voice', call_id: otherCall })
  await id('/api/v1/tickets', { subject: 'Ada’s', contact_id: ids.other_contact })
  await send('POST', '/api/v1/surveys', { survey_type: 'nps', subject_type: 'call', subject_id: otherCall })
  const survey = await send('POST', '/api/v1/surveys', { survey_type: 'csat', subject_type: 'ticket', subject_id: ids.ticket })
  ids.survey = survey.response.id
  // .test never resolves: a delivery sent (a webhook's test send) fails at once, without the network.
  ids.webhook = await id('/api/v1/webhooks', {
    url: 'https://hooks.acme.test/switchboard',
    events: ['ticket.*', 'crm.*'],
    secret: 'x'.repeat(32),
  })
  await send('PATCH', `/api/v1/tickets/${ids.ticket}`, { priority: 'high' })
  ids.delivery = (await send('GET', `/api/v1/webhooks/${ids.webhook}/deliveries`)).deliveries[0]!.id
  ids.oauth_client = await id('/api/v1/oauth-clients', { name: 'Dash', redirect_uris: ['https://dash.example/cb'] })
  ids.api_key = await id('/api/v1/api-keys', { name: 'Nightly', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() })
  ids.activity = (await send('POST', '/api/v1/agent-activities', { key: 'training', name: 'Training', available: false })).key
  // Another user's session: ending it is fair game, ending the fuzzer's own would stop the run.
  const admin = await signIn(app, acme.users.admin.user)
  ids.session = (await send('GET', `/api/v1/auth/sessions?user_id=${admin.user.id}`)).sessions[0]!.id
  const invoice = { currency: 'usd', lines: [{ description: 'Setup', quantity: 1, unit_amount: 5000 }] }
  ids.invoice = await id(`/api/v1/operator/organizations/${ids.org}/invoices`, invoice)
  return { acme, operator, ids, surveyToken: new URL(survey.url).pathname.split('/').pop()! }
}
