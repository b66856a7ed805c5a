// Makes every event type of the catalog happen through the HTTP API of one app, each in the variants
// whose data differ (with and without an account, a merge, a detach, a declined card, ...), as the
// modules' own tests drive them; the caller reads the events written.
import { expect } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { backgroundProcessingSettled } from '../../../src/modules/calls/recordings/process-recording.ts'
import { createOperatorToken } from '../../../src/modules/operators/index.ts'
import type { TestApp } from '../../helpers/app.ts'
import type { Auth } from '../../helpers/errors.ts'
import type { SeededOrg } from '../../helpers/seed.ts'
import { mp3File } from '../calls/calls-api.ts'
import { PNG_1x1, client as uploadsClient } from '../uploads/uploads-api.ts'

/** An answer as this file reads it: the id of what was made (the survey's link, too). */
type Answer = Record<string, unknown> & { id: string }

/** `acme` lives through everything; `globex` is charged with a declined card (the fake Stripe gives each card one customer). */
export async function causeEveryEvent(app: TestApp, acme: SeededOrg, globex: SeededOrg): Promise<void> {
  const { users } = acme
  const admin = users.admin.auth
  /** A request whose answer must be `status`; its JSON body (or nothing). */
  const call = async (method: string, path: string, body?: unknown, status = 200, auth: Auth = admin): Promise<Answer> => {
    const response = await app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    expect({ method, path, status: response.status, text }).toMatchObject({ status })
    return text === '' ? { id: '' } : JSON.parse(text)
  }

  // Users (user.created also by the seeding): a role change, a disabling.
  const user = await call('POST', '/api/v1/users', { email: 'new@acme.test', name: 'New', password: 'password-123', role: 'agent' }, 201)
  await call('PATCH', `/api/v1/users/${user.id}`, { role: 'viewer' })
  await call('DELETE', `/api/v1/users/${user.id}`, undefined, 204)

  // Tickets: created with an upload and an assignee, solved, reassigned, commented on.
  const upload = await uploadsClient(app, admin).upload(PNG_1x1, { filename: 'shot.png' })
  const ticket = await call(
    'POST',
    '/api/v1/tickets',
    { subject: 'Printer on fire', channel: 'email', assignee_id: users.agent.user.id, upload_ids: [upload.id] },
    201,
  )
  await call('PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'solved', priority: 'high' })
  await call('POST', `/api/v1/tickets/${ticket.id}/assign`, { assignee_id: users.supervisor.user.id })
  await call('POST', `/api/v1/tickets/${ticket.id}/comments`, { body: 'A new cartridge is on its way.' }, 201)

  // Accounts and contacts: changed, merged, deleted, detached by the deletion of their account.
  const account = await call('POST', '/api/v1/accounts', { name: 'Example GmbH', domain: 'example.com' }, 201)
  await call('PATCH', `/api/v1/accounts/${account.id}`, { name: 'Example AG' })
  const survivor = await call('POST', '/api/v1/contacts', { name: 'Grace Customer', email: 'grace@example.com' }, 201)
  await call('PATCH', `/api/v1/contacts/${survivor.id}`, { name: 'Grace Hopper' })
  const duplicate = await call('POST', '/api/v1/contacts', { name: 'G. Hopper', phone: '+14155550123' }, 201)
  await call('POST', `/api/v1/contacts/${survivor.id}/merge`, { other_id: duplicate.id })
  const gone = await call('POST', '/api/v1/contacts', { name: 'Short-lived' }, 201)
  await call('DELETE', `/api/v1/contacts/${gone.id}`, undefined, 204)
  await call('POST', '/api/v1/contacts', { name: 'Employee', account_id: account.id }, 201)
  await call('DELETE', `/api/v1/accounts/${account.id}?cascade=detach`, undefined, 204)

  // Leads converted without an account, and into a new one.
  for (const [name, convert] of [
    ['Ada Lovelace', { account: null, contact: { create: {} } }],
    ['Alan Turing', { account: { create: { domain: 'bletchley.example' } }, contact: { create: {} } }],
  ] as const) {
    const lead = await call('POST', '/api/v1/leads', { name, company_name: `${name} Ltd` }, 201)
    await call('PATCH', `/api/v1/leads/${lead.id}`, { status: 'contacted' })
    await call('PATCH', `/api/v1/leads/${lead.id}`, { status: 'qualified' })
    await call('POST', `/api/v1/leads/${lead.id}/convert`, convert)
  }

  // Calls: answered by an agent, transferred to a queue, completed, recorded; one never answered.
  const phoneCall = await call(
    'POST',
    '/api/v1/calls',
    { direction: 'inbound', from: '+14155550100', to: '+14155550199', queue: 'support' },
    201,
  )
  await call('POST', `/api/v1/calls/${phoneCall.id}/answer`, { agent_id: users.agent.user.id })
  await call('POST', `/api/v1/calls/${phoneCall.id}/transfer`, { to: { queue: 'billing' } })
  await call('POST', `/api/v1/calls/${phoneCall.id}/end`, { status: 'completed', end_reason: 'customer_hangup' })
  const missed = await call(
    'POST',
    '/api/v1/calls',
    { direction: 'inbound', from: '+14155550101', to: '+14155550199', status: 'ringing' },
    201,
  )
  await call('POST', `/api/v1/calls/${missed.id}/end`, { status: 'no_answer' })
  const recording = await app.request(`/api/v1/calls/${phoneCall.id}/recordings?filename=call.mp3`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'audio/mpeg' },
    body: mp3File(40),
  })
  expect(recording.status).toBe(201)
  await backgroundProcessingSettled(app.context)

  // Agents: a login, a status of its own, a logout; another logged out by a supervisor.
  for (const [agent, off] of [
    [users.agent.auth, () => call('POST', '/api/v1/agents/me/logout', {}, 200, users.agent.auth)],
    [
      users.supervisor.auth,
      () => call('PUT', `/api/v1/agents/${users.supervisor.user.id}/status`, { status: 'offline' }, 200, users.super_admin.auth),
    ],
  ] as const) {
    await call('POST', '/api/v1/agents/me/login', {}, 200, agent)
    await call('PUT', '/api/v1/agents/me/status', { status: 'break' }, 200, agent)
    await off()
  }

  // Engagements: a session with a message, escalated to a team, closed.
  const session = await call('POST', '/api/v1/engagements', { channel: 'chat', contact_id: survivor.id }, 201)
  await call('POST', `/api/v1/engagements/${session.id}/messages`, { direction: 'in', body: 'My refund?' }, 201)
  await call('POST', `/api/v1/engagements/${session.id}/escalate`, { level: 2, to: { team: 'tier2' }, reason: 'Refund above the limit' })
  await call('POST', `/api/v1/engagements/${session.id}/close`, {})

  // Surveys: answered through the public link, then changed.
  const offered = await call('POST', '/api/v1/surveys', { survey_type: 'csat', subject_type: 'ticket', subject_id: ticket.id }, 201)
  for (const score of [4, 2]) {
    const answer = await app.request(new URL(offered.url as string).pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ score, comment: 'fine' }),
    })
    expect(answer.status).toBe(200)
  }

  // Billing through the fake Stripe: paid at once (acme), declined then canceled (globex).
  const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'events' })
  const operator = { authorization: `Bearer ${token}` }
  await call(
    'PUT',
    '/api/v1/operator/plans/starter',
    { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] },
    200,
    operator,
  )
  await call(
    'POST',
    '/api/v1/billing/subscription',
    { plan: 'starter', default_payment_method_id: 'pm_card_visa' },
    201,
    users.super_admin.auth,
  )
  const owner = globex.users.super_admin.auth
  await call('POST', '/api/v1/billing/subscription', { plan: 'starter', default_payment_method_id: 'pm_card_chargeDeclined' }, 201, owner)
  await call('POST', '/api/v1/billing/subscription/cancel', { at_period_end: false }, 200, owner)
}
