// Security cases for every authenticated route of the API, table-driven: 401 without or with a bad
// token, 403 for each role that lacks the route's permission, and 404 for a resource of another
// organization. A test at the end fails when a route is added without a row here.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { routeEntry } from '../src/app.ts'
import { prefixedId } from '../src/lib/ids.ts'
import { contextFor } from '../src/context.ts'
import { createRouteTable } from '../src/lib/route-match.ts'
import { hasPermission } from '../src/modules/access/match.ts'
import { ROLE_GRANTS, ROLES, type Permission } from '../src/modules/access/permissions.ts'
import { createOperatorToken, revokeOperatorToken } from '../src/modules/operators/index.ts'
import { json, makeTestApp } from './helpers/app.ts'
import { seedOrganization } from './helpers/seed.ts'
import { wavOf } from './modules/uploads/uploads-api.ts'

// Rate limits on, far above what the table needs: every response must carry the X-RateLimit-* headers.
const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true', UNAUTH_PER_MINUTE: '1000000' })
afterAll(() => app.close())
const home = await seedOrganization(app, 'home')
const away = await seedOrganization(app, 'away')
await app.context.db.raw.run('UPDATE organizations SET rate_limit_per_minute = 1000000, rate_limit_per_day = 100000000')
const post = async (org: typeof home, path: string, body: unknown) => {
  const response = await app.request(path, {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}
// The resources by-id routes address. The user is none of the callers (a permitted DELETE must not lock
// a caller out); the ticket is unassigned (an agent sees it) and is recreated for each route.
const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid
const key = { name: 'Target key', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() }
// localhost: a test send is refused at once by the SSRF check (loopback), no network needed.
const hook = { url: 'https://localhost:9/switchboard', events: ['ticket.*'], secret: 'a-secret-of-16-chars-or-more' }
const oauthClient = { name: 'Target client', redirect_uris: ['https://app.example.com/cb'] }
// A consent of the organization's viewer to a client (as the authorization server's consent page saves one).
async function grantOf(org: typeof home): Promise<string> {
  const clientId = await post(org, '/api/v1/oauth-clients', oauthClient)
  const id = prefixedId('ogr')
  await app.context.db.raw.run(
    'INSERT INTO oauth_grants (id, organization_id, user_id, client_id, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [id, org.org.id, org.users.viewer.user.id, clientId, 'openid', app.clock.now(), app.clock.now()],
  )
  return id
}
// Uploads, calls and recordings (issue 17): a raw upload; an unassigned call (an agent sees it); a recording
// of such a call from an upload of a one-second WAV. Recreated for each route, like tickets.
const upload = async (org: typeof home, purpose = 'attachment', bytes: Uint8Array = new TextEncoder().encode('x')) => {
  const response = await app.request(`/api/v1/uploads?filename=f.bin&purpose=${purpose}`, {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/octet-stream' },
    body: bytes,
  })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}
const newCall = (org: typeof home) => post(org, '/api/v1/calls', { direction: 'inbound', from: '+14155550123', to: '+14155550199' })
// Its audio is read after the answer: its media route answers once it is ready (409 while processing).
const newRecording = async (org: typeof home) => {
  const id = await post(org, `/api/v1/calls/${await newCall(org)}/recordings`, { upload_id: await upload(org, 'recording', wavOf(1)) })
  for (let status = ''; status !== 'completed'; await Bun.sleep(5)) {
    const response = await app.request(`/api/v1/recordings/${id}`, { headers: org.users.super_admin.auth })
    status = (await json<{ status: string }>(response)).status
    expect(status).not.toBe('failed')
  }
  return id
}
const activity = { key: 'lunch', name: 'Lunch', available: false }
let activities = 0
await post(away, '/api/v1/agent-activities', { ...activity, key: 'away_only' })
const targets = {
  user: {
    home: await post(home, '/api/v1/users', { email: 'target@home.test', name: 'Target', password: 'password-123', role: 'viewer' }),
    away: away.users.agent.user.id,
  },
  ticket: { home: '', away: await post(away, '/api/v1/tickets', { subject: 'Away ticket' }) },
  // Accounts and contacts (issue 16): recreated for each route; the contact unowned (an agent may write it).
  account: { home: '', away: await post(away, '/api/v1/accounts', { name: 'Away account' }) },
  contact: { home: '', away: await post(away, '/api/v1/contacts', { name: 'Away contact' }) },
  // Leads (issue 16): unowned (an agent may write it), qualified (it converts), recreated for each route.
  lead: { home: '', away: await post(away, '/api/v1/leads', { name: 'Away lead' }) },
  session: { home: sidOf(home.users.viewer.accessToken), away: sidOf(away.users.agent.accessToken) },
  api_key: { home: await post(home, '/api/v1/api-keys', key), away: await post(away, '/api/v1/api-keys', key) },
  webhook: { home: await post(home, '/api/v1/webhooks', hook), away: await post(away, '/api/v1/webhooks', hook) },
  oauth_client: {
    home: await post(home, '/api/v1/oauth-clients', oauthClient),
    away: await post(away, '/api/v1/oauth-clients', oauthClient),
  },
  oauth_grant: { home: await grantOf(home), away: await grantOf(away) },
  upload: { home: '', away: await upload(away) },
  call: { home: '', away: await newCall(away) },
  recording: { home: '', away: await newRecording(away) },
  // An agent's id is its user's: the home agent is visible to every role that reads agents (an agent sees itself).
  agent: { home: home.users.agent.user.id, away: away.users.agent.user.id },
  agent_activity: { home: '', away: 'away_only' },
  // Billing (issue 18): each organization subscribed to Starter (sent invoices), its first invoice, a transfer it reported.
  invoice: { home: '', away: '' },
  payment: { home: '', away: '' },
  // Engagement sessions (issue 19): queued (an agent sees it), recreated for each route.
  engagement: { home: '', away: '' },
  survey_response: { home: '', away: '' },
}
// A contact of each organization for its sessions.
const sessionContact = {
  home: await post(home, '/api/v1/contacts', { name: 'Session contact' }),
  away: await post(away, '/api/v1/contacts', { name: 'Session contact' }),
}
const newEngagement = (side: 'home' | 'away') =>
  post(side === 'home' ? home : away, '/api/v1/engagements', { contact_id: sessionContact[side], channel: 'chat' })
targets.engagement.away = await newEngagement('away')
// Survey responses (issue 19): a CSAT offer on a ticket of each organization.
const offer = async (org: typeof home) => {
  const response = await app.request('/api/v1/surveys', {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      survey_type: 'csat',
      subject_type: 'ticket',
      subject_id: await post(org, '/api/v1/tickets', { subject: 'Rated' }),
    }),
  })
  expect(response.status).toBe(201)
  return (await json<{ response: { id: string } }>(response)).response.id
}
const surveyTargets = { home: await offer(home), away: await offer(away) }
Object.assign(targets.survey_response, surveyTargets)

// Billing (issue 18): an operator token sets a Starter price; both organizations subscribe and report a transfer.
const cli = contextFor(app.context, { kind: 'system', id: 'cli' })
const operator = { authorization: `Bearer ${(await createOperatorToken(cli, { name: 'security' })).token}` }
const revoked = await createOperatorToken(cli, { name: 'revoked' })
await revokeOperatorToken(cli, revoked.operator_token.id)
const operatorRequest = (method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...operator, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
expect(
  (await operatorRequest('PUT', '/api/v1/operator/plans/starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] }))
    .status,
).toBe(200)
for (const side of ['home', 'away'] as const) {
  const org = side === 'home' ? home : away
  const subscribed = await app.request('/api/v1/billing/subscription', {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'starter' }),
  })
  expect(subscribed.status).toBe(201)
  targets.invoice[side] = (await json<{ latest_invoice_id: string }>(subscribed)).latest_invoice_id
  const paid = await app.request(`/api/v1/billing/invoices/${targets.invoice[side]}/pay`, {
    method: 'POST',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `transfer ${side}` }),
  })
  expect(paid.status).toBe(200)
  targets.payment[side] = (await json<{ id: string }>(paid)).id
}
// A subscription moves its organization's plan (and drops its own rates): give them back.
await app.context.db.raw.run('UPDATE organizations SET rate_limit_per_minute = 1000000, rate_limit_per_day = 100000000')

interface Route {
  method: string
  path: (id: string) => string
  /** null: any authenticated user. */
  permission: Permission | null
  body?: unknown
  /** A CSV file as the body (Content-Type text/csv) instead of JSON. */
  csv?: string
  /** A raw file as the body (Content-Type application/octet-stream): an upload. */
  raw?: string
  /** The kind of resource the route addresses by id: another organization's must answer 404. */
  byId?: keyof typeof targets
}

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/api/v1/me', permission: null },
  { method: 'GET', path: () => '/api/v1/roles', permission: 'role:read' },
  { method: 'GET', path: () => '/api/v1/permissions', permission: null },
  {
    method: 'POST',
    path: () => '/api/v1/users',
    permission: 'user:create',
    body: { email: 'x@home.test', name: 'X', password: 'password-123', role: 'viewer' },
  },
  { method: 'GET', path: () => '/api/v1/users', permission: 'user:read' },
  { method: 'GET', path: (id) => `/api/v1/users/${id}`, permission: 'user:read', byId: 'user' },
  { method: 'PATCH', path: (id) => `/api/v1/users/${id}`, permission: 'user:update', body: { name: 'Renamed' }, byId: 'user' },
  { method: 'DELETE', path: (id) => `/api/v1/users/${id}`, permission: 'user:delete', byId: 'user' },
  { method: 'POST', path: () => '/api/v1/tickets', permission: 'ticket:create', body: { subject: 'New' } },
  { method: 'GET', path: () => '/api/v1/tickets', permission: 'ticket:read' },
  { method: 'GET', path: (id) => `/api/v1/tickets/${id}`, permission: 'ticket:read', byId: 'ticket' },
  { method: 'PATCH', path: (id) => `/api/v1/tickets/${id}`, permission: 'ticket:update', body: { priority: 'high' }, byId: 'ticket' },
  { method: 'DELETE', path: (id) => `/api/v1/tickets/${id}`, permission: 'ticket:delete', byId: 'ticket' },
  {
    method: 'POST',
    path: (id) => `/api/v1/tickets/${id}/assign`,
    permission: 'ticket:assign',
    body: { assignee_id: null },
    byId: 'ticket',
  },
  { method: 'POST', path: (id) => `/api/v1/tickets/${id}/comments`, permission: 'ticket:comment', body: { body: 'Hello' }, byId: 'ticket' },
  { method: 'GET', path: (id) => `/api/v1/tickets/${id}/comments`, permission: 'ticket:read', byId: 'ticket' },
  // Accounts and contacts (issue 16)
  { method: 'POST', path: () => '/api/v1/accounts', permission: 'account:create', body: { name: 'New account' } },
  { method: 'GET', path: () => '/api/v1/accounts', permission: 'account:read' },
  { method: 'GET', path: (id) => `/api/v1/accounts/${id}`, permission: 'account:read', byId: 'account' },
  { method: 'PATCH', path: (id) => `/api/v1/accounts/${id}`, permission: 'account:update', body: { industry: 'Retail' }, byId: 'account' },
  { method: 'DELETE', path: (id) => `/api/v1/accounts/${id}`, permission: 'account:delete', byId: 'account' },
  { method: 'POST', path: () => '/api/v1/contacts', permission: 'contact:create', body: { name: 'New contact' } },
  { method: 'GET', path: () => '/api/v1/contacts', permission: 'contact:read' },
  { method: 'GET', path: (id) => `/api/v1/contacts/${id}`, permission: 'contact:read', byId: 'contact' },
  { method: 'PATCH', path: (id) => `/api/v1/contacts/${id}`, permission: 'contact:update', body: { name: 'Renamed' }, byId: 'contact' },
  { method: 'DELETE', path: (id) => `/api/v1/contacts/${id}`, permission: 'contact:delete', byId: 'contact' },
  {
    method: 'POST',
    path: (id) => `/api/v1/contacts/${id}/merge`,
    permission: 'contact:update',
    body: { other_id: 'con_00000000000000000000000000' },
    byId: 'contact',
  },
  { method: 'GET', path: (id) => `/api/v1/contacts/${id}/tickets`, permission: 'contact:read', byId: 'contact' },
  { method: 'POST', path: () => '/api/v1/contacts/import', permission: 'contact:create', csv: 'name\r\nImported contact\r\n' },
  { method: 'GET', path: () => '/api/v1/contacts/export', permission: 'contact:read' },
  { method: 'GET', path: () => '/api/v1/accounts/export', permission: 'account:read' },
  // Leads (issue 16)
  { method: 'POST', path: () => '/api/v1/leads', permission: 'lead:create', body: { name: 'New lead' } },
  { method: 'GET', path: () => '/api/v1/leads', permission: 'lead:read' },
  { method: 'GET', path: (id) => `/api/v1/leads/${id}`, permission: 'lead:read', byId: 'lead' },
  { method: 'PATCH', path: (id) => `/api/v1/leads/${id}`, permission: 'lead:update', body: { score: 50 }, byId: 'lead' },
  { method: 'DELETE', path: (id) => `/api/v1/leads/${id}`, permission: 'lead:delete', byId: 'lead' },
  {
    method: 'POST',
    path: (id) => `/api/v1/leads/${id}/convert`,
    permission: 'lead:convert',
    body: { contact: { create: {} } },
    byId: 'lead',
  },
  // Uploads (issue 17)
  { method: 'POST', path: () => '/api/v1/uploads', permission: 'upload:create', raw: 'a file' },
  { method: 'GET', path: () => '/api/v1/uploads', permission: 'upload:read' },
  { method: 'GET', path: (id) => `/api/v1/uploads/${id}`, permission: 'upload:read', byId: 'upload' },
  { method: 'GET', path: (id) => `/api/v1/uploads/${id}/content`, permission: 'upload:read', byId: 'upload' },
  { method: 'POST', path: (id) => `/api/v1/uploads/${id}/url`, permission: 'upload:read', byId: 'upload' },
  { method: 'DELETE', path: (id) => `/api/v1/uploads/${id}`, permission: 'upload:delete', byId: 'upload' },
  // Calls and recordings (issue 17)
  {
    method: 'POST',
    path: () => '/api/v1/calls',
    permission: 'call:create',
    body: { direction: 'inbound', from: '+14155550123', to: '+14155550199' },
  },
  { method: 'GET', path: () => '/api/v1/calls', permission: 'call:read' },
  { method: 'GET', path: (id) => `/api/v1/calls/${id}`, permission: 'call:read', byId: 'call' },
  { method: 'PATCH', path: (id) => `/api/v1/calls/${id}`, permission: 'call:update', body: { ticket_id: null }, byId: 'call' },
  { method: 'POST', path: (id) => `/api/v1/calls/${id}/ring`, permission: 'call:update', body: {}, byId: 'call' },
  { method: 'POST', path: (id) => `/api/v1/calls/${id}/answer`, permission: 'call:update', body: {}, byId: 'call' },
  {
    method: 'POST',
    path: (id) => `/api/v1/calls/${id}/transfer`,
    permission: 'call:update',
    body: { to: { queue: 'sales' } },
    byId: 'call',
  },
  { method: 'POST', path: (id) => `/api/v1/calls/${id}/end`, permission: 'call:update', body: { status: 'canceled' }, byId: 'call' },
  {
    method: 'POST',
    path: (id) => `/api/v1/calls/${id}/recordings`,
    permission: 'recording:create',
    body: { upload_id: 'upl_00000000000000000000000000' },
    byId: 'call',
  },
  { method: 'GET', path: (id) => `/api/v1/calls/${id}/recordings`, permission: 'recording:read', byId: 'call' },
  { method: 'GET', path: (id) => `/api/v1/recordings/${id}`, permission: 'recording:read', byId: 'recording' },
  { method: 'GET', path: (id) => `/api/v1/recordings/${id}/media`, permission: 'recording:read', byId: 'recording' },
  { method: 'DELETE', path: (id) => `/api/v1/recordings/${id}`, permission: 'recording:delete', byId: 'recording' },
  { method: 'GET', path: () => '/api/v1/organization/calls', permission: 'organization:read' },
  {
    method: 'PATCH',
    path: () => '/api/v1/organization/calls',
    permission: 'organization:update',
    body: { recording_retention_days: 30 },
  },
  // Agents (issue 17)
  { method: 'GET', path: () => '/api/v1/agents', permission: 'agent:read' },
  { method: 'GET', path: (id) => `/api/v1/agents/${id}`, permission: 'agent:read', byId: 'agent' },
  { method: 'PATCH', path: (id) => `/api/v1/agents/${id}`, permission: 'agent:update', body: { auto_offline: true }, byId: 'agent' },
  { method: 'PUT', path: (id) => `/api/v1/agents/${id}/status`, permission: 'agent:update', body: { status: 'break' }, byId: 'agent' },
  { method: 'GET', path: (id) => `/api/v1/agents/${id}/sessions`, permission: 'agent:read', byId: 'agent' },
  { method: 'POST', path: () => '/api/v1/agents/me/login', permission: 'agent:update' },
  { method: 'POST', path: () => '/api/v1/agents/me/logout', permission: 'agent:update' },
  { method: 'GET', path: () => '/api/v1/agent-activities', permission: 'agent:read' },
  { method: 'POST', path: () => '/api/v1/agent-activities', permission: 'agent:create', body: activity },
  {
    method: 'DELETE',
    // The route names its parameter :key (an activity's key, not an id).
    path: (id) => `/api/v1/agent-activities/${id === ':id' ? ':key' : id}`,
    permission: 'agent:delete',
    byId: 'agent_activity',
  },
  // Billing (issue 18)
  { method: 'GET', path: () => '/api/v1/billing/plans', permission: 'billing:read' },
  { method: 'GET', path: () => '/api/v1/billing/settings', permission: 'billing:read' },
  { method: 'PATCH', path: () => '/api/v1/billing/settings', permission: 'billing:manage', body: { billing_name: 'Home Ltd' } },
  { method: 'GET', path: () => '/api/v1/billing/subscription', permission: 'billing:read' },
  { method: 'POST', path: () => '/api/v1/billing/subscription', permission: 'billing:manage', body: { plan: 'starter', quantity: 1 } },
  { method: 'POST', path: () => '/api/v1/billing/subscription/cancel', permission: 'billing:manage', body: { at_period_end: true } },
  { method: 'POST', path: () => '/api/v1/billing/subscription/resume', permission: 'billing:manage', body: {} },
  { method: 'GET', path: () => '/api/v1/billing/invoices', permission: 'billing:read' },
  { method: 'GET', path: (id) => `/api/v1/billing/invoices/${id}`, permission: 'billing:read', byId: 'invoice' },
  { method: 'GET', path: (id) => `/api/v1/billing/invoices/${id}/pdf`, permission: 'billing:read', byId: 'invoice' },
  {
    method: 'POST',
    path: (id) => `/api/v1/billing/invoices/${id}/pay`,
    permission: 'billing:manage',
    body: { reference: 'another transfer' },
    byId: 'invoice',
  },
  { method: 'GET', path: () => '/api/v1/billing/payments', permission: 'billing:read' },
  { method: 'GET', path: (id) => `/api/v1/billing/payments/${id}`, permission: 'billing:read', byId: 'payment' },
  // Engagement sessions and messages (issue 19)
  {
    method: 'POST',
    path: () => '/api/v1/engagements',
    permission: 'engagement:create',
    body: { contact_id: 'con_00000000000000000000000000', channel: 'chat' },
  },
  { method: 'GET', path: () => '/api/v1/engagements', permission: 'engagement:read' },
  { method: 'GET', path: (id) => `/api/v1/engagements/${id}`, permission: 'engagement:read', byId: 'engagement' },
  {
    method: 'PATCH',
    path: (id) => `/api/v1/engagements/${id}`,
    permission: 'engagement:update',
    body: { priority: 'high' },
    byId: 'engagement',
  },
  {
    method: 'POST',
    path: (id) => `/api/v1/engagements/${id}/assign`,
    permission: 'engagement:update',
    body: { assignee_id: 'auto' },
    byId: 'engagement',
  },
  {
    method: 'POST',
    path: (id) => `/api/v1/engagements/${id}/snooze`,
    permission: 'engagement:update',
    body: { until: '2099-01-01T00:00:00Z' },
    byId: 'engagement',
  },
  { method: 'POST', path: (id) => `/api/v1/engagements/${id}/unsnooze`, permission: 'engagement:update', byId: 'engagement' },
  { method: 'POST', path: (id) => `/api/v1/engagements/${id}/wrap-up`, permission: 'engagement:update', byId: 'engagement' },
  { method: 'POST', path: (id) => `/api/v1/engagements/${id}/reopen`, permission: 'engagement:update', byId: 'engagement' },
  { method: 'POST', path: (id) => `/api/v1/engagements/${id}/close`, permission: 'engagement:close', body: {}, byId: 'engagement' },
  {
    method: 'POST',
    path: (id) => `/api/v1/engagements/${id}/escalate`,
    permission: 'engagement:escalate',
    body: { level: 1, to: { team: 'tier2' }, reason: 'Security table' },
    byId: 'engagement',
  },
  {
    method: 'POST',
    path: (id) => `/api/v1/engagements/${id}/messages`,
    permission: 'message:create',
    body: { direction: 'in', body: 'Hello' },
    byId: 'engagement',
  },
  { method: 'GET', path: (id) => `/api/v1/engagements/${id}/messages`, permission: 'message:read', byId: 'engagement' },
  // Survey responses (issue 19)
  {
    method: 'POST',
    path: () => '/api/v1/surveys',
    permission: 'survey:create',
    body: { survey_type: 'nps', subject_type: 'ticket', subject_id: 'tkt_00000000000000000000000000' },
  },
  { method: 'POST', path: (id) => `/api/v1/surveys/${id}/link`, permission: 'survey:create', byId: 'survey_response' },
  { method: 'GET', path: () => '/api/v1/surveys/settings', permission: 'survey:read' },
  { method: 'PATCH', path: () => '/api/v1/surveys/settings', permission: 'survey:update', body: { on_ticket_solved: [] } },
  { method: 'GET', path: () => '/api/v1/survey-responses', permission: 'survey:read' },
  { method: 'GET', path: () => '/api/v1/survey-responses/metrics', permission: 'survey:read' },
  { method: 'GET', path: (id) => `/api/v1/survey-responses/${id}`, permission: 'survey:read', byId: 'survey_response' },
  // The live event stream (issue 19): any user; what it shows depends on the permissions (its own tests).
  { method: 'GET', path: () => '/api/v1/events/stream', permission: null },
  { method: 'POST', path: () => '/api/v1/auth/password', permission: null, body: { current_password: 'x', new_password: 'password-456' } },
  { method: 'POST', path: () => '/api/v1/auth/logout', permission: null },
  { method: 'GET', path: () => '/api/v1/auth/sessions', permission: null },
  { method: 'DELETE', path: (id) => `/api/v1/auth/sessions/${id}`, permission: null, byId: 'session' },
  { method: 'GET', path: () => '/api/v1/auth/mfa', permission: null },
  { method: 'POST', path: () => '/api/v1/auth/mfa/totp', permission: null },
  { method: 'POST', path: () => '/api/v1/auth/mfa/totp/confirm', permission: null, body: { code: '000000' } },
  { method: 'DELETE', path: () => '/api/v1/auth/mfa/totp', permission: null, body: { password: 'x', code: '000000' } },
  { method: 'POST', path: () => '/api/v1/auth/mfa/sms', permission: null, body: { phone: '+15005550006' } },
  { method: 'POST', path: () => '/api/v1/auth/mfa/sms/confirm', permission: null, body: { code: '000000' } },
  { method: 'POST', path: () => '/api/v1/auth/mfa/step-up/sms', permission: null },
  { method: 'DELETE', path: () => '/api/v1/auth/mfa/sms', permission: null, body: { password: 'x' } },
  { method: 'POST', path: () => '/api/v1/api-keys', permission: 'api_key:create', body: key },
  { method: 'GET', path: () => '/api/v1/api-keys', permission: 'api_key:read' },
  { method: 'DELETE', path: (id) => `/api/v1/api-keys/${id}`, permission: 'api_key:delete', byId: 'api_key' },
  { method: 'GET', path: () => '/api/v1/organization/security', permission: 'organization:read' },
  { method: 'PATCH', path: () => '/api/v1/organization/security', permission: 'organization:update', body: { mfa_required: false } },
  { method: 'GET', path: () => '/api/v1/audit-logs', permission: 'audit:read' },
  { method: 'GET', path: () => '/api/v1/audit-logs/verify', permission: 'audit:read' },
  { method: 'POST', path: () => '/api/v1/webhooks', permission: 'webhook:create', body: hook },
  { method: 'GET', path: () => '/api/v1/webhooks', permission: 'webhook:read' },
  { method: 'GET', path: (id) => `/api/v1/webhooks/${id}`, permission: 'webhook:read', byId: 'webhook' },
  {
    method: 'PATCH',
    path: (id) => `/api/v1/webhooks/${id}`,
    permission: 'webhook:update',
    body: { description: 'Renamed' },
    byId: 'webhook',
  },
  { method: 'GET', path: (id) => `/api/v1/webhooks/${id}/deliveries`, permission: 'webhook:read', byId: 'webhook' },
  {
    method: 'POST',
    path: (id) => `/api/v1/webhooks/${id}/test`,
    permission: 'webhook:update',
    body: { event_type: 'ticket.created' },
    byId: 'webhook',
  },
  {
    method: 'POST',
    path: (id) => `/api/v1/webhooks/${id}/deliveries/${id === ':id' ? ':delivery_id' : 'dlv_00000000000000000000000000'}/retry`,
    permission: 'webhook:update',
    byId: 'webhook',
  },
  {
    method: 'POST',
    path: (id) => `/api/v1/webhooks/${id}/recover`,
    permission: 'webhook:update',
    body: { since: new Date(app.clock.now() - 3_600_000).toISOString() },
    byId: 'webhook',
  },
  { method: 'DELETE', path: (id) => `/api/v1/webhooks/${id}`, permission: 'webhook:delete', byId: 'webhook' },
  { method: 'POST', path: () => '/api/v1/oauth-clients', permission: 'oauth_client:create', body: oauthClient },
  { method: 'GET', path: () => '/api/v1/oauth-clients', permission: 'oauth_client:read' },
  { method: 'GET', path: (id) => `/api/v1/oauth-clients/${id}`, permission: 'oauth_client:read', byId: 'oauth_client' },
  {
    method: 'PATCH',
    path: (id) => `/api/v1/oauth-clients/${id}`,
    permission: 'oauth_client:update',
    body: { name: 'Renamed' },
    byId: 'oauth_client',
  },
  { method: 'POST', path: (id) => `/api/v1/oauth-clients/${id}/rotate-secret`, permission: 'oauth_client:update', byId: 'oauth_client' },
  { method: 'DELETE', path: (id) => `/api/v1/oauth-clients/${id}`, permission: 'oauth_client:delete', byId: 'oauth_client' },
  { method: 'GET', path: () => '/api/v1/me/oauth-grants', permission: null },
  { method: 'DELETE', path: (id) => `/api/v1/me/oauth-grants/${id}`, permission: null, byId: 'oauth_grant' },
  // Reports: the table's path (':id') is the route's; a request adds the query it needs.
  { method: 'GET', path: () => '/api/v1/reports/metrics', permission: 'report:read' },
  { method: 'GET', path: (id) => `/api/v1/reports/summary${id === ':id' ? '' : '?metrics=tickets.created'}`, permission: 'report:read' },
  { method: 'GET', path: (id) => `/api/v1/reports/timeseries${id === ':id' ? '' : '?metric=calls.offered'}`, permission: 'report:read' },
  { method: 'GET', path: () => '/api/v1/reports/agents', permission: 'report:read' },
  { method: 'GET', path: () => '/api/v1/reports/live', permission: 'report:read' },
  { method: 'GET', path: (id) => `/api/v1/reports/records${id === ':id' ? '' : '?metric=tickets.created'}`, permission: 'report:read' },
  { method: 'GET', path: () => '/api/v1/reports/settings', permission: 'report:read' },
  {
    method: 'PUT',
    path: () => '/api/v1/reports/settings',
    permission: 'organization:update',
    body: { time_zone: 'UTC', business_hours: null },
  },
]

const call = async (route: Route, id: string, headers: Record<string, string>) => {
  const response = await app.request(route.path(id), {
    method: route.method,
    headers: {
      ...headers,
      ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(route.csv === undefined ? {} : { 'content-type': 'text/csv' }),
      ...(route.raw === undefined ? {} : { 'content-type': 'application/octet-stream' }),
    },
    body: route.csv ?? route.raw ?? (route.body === undefined ? undefined : JSON.stringify(route.body)),
  })
  // Authenticated requests count against the user (1,000,000), the others against the address (the same figure here);
  // an upload shows its own window when it is the tighter one (100 an hour per organization).
  const upload = route.raw !== undefined && response.status !== 401
  // Reports: 10 a minute per user, the tighter window (each user asks each report once here).
  const report = route.method === 'GET' && route.path(':id').startsWith('/api/v1/reports/') && response.status !== 401
  expect(response.headers.get('x-ratelimit-limit'), `${route.method} ${route.path(id)} -> ${response.status}`).toBe(
    upload ? '100' : report ? '10' : '1000000',
  )
  expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(upload ? 50 : report ? 0 : 990_000)
  return response
}

for (const route of ROUTES) {
  const name = `${route.method} ${route.path(':id')}`
  describe(name, () => {
    const target = () => targets[route.byId ?? 'user'].home
    beforeEach(async () => {
      if (route.byId === 'ticket') targets.ticket.home = await post(home, '/api/v1/tickets', { subject: 'Home ticket' })
      if (route.byId === 'account') targets.account.home = await post(home, '/api/v1/accounts', { name: 'Home account' })
      if (route.byId === 'contact') targets.contact.home = await post(home, '/api/v1/contacts', { name: 'Home contact' })
      if (route.byId === 'lead') targets.lead.home = await post(home, '/api/v1/leads', { name: 'Home lead', status: 'qualified' })
      if (route.byId === 'upload') targets.upload.home = await upload(home)
      if (route.byId === 'call') targets.call.home = await newCall(home)
      if (route.byId === 'recording') targets.recording.home = await newRecording(home)
      if (route.byId === 'engagement') targets.engagement.home = await newEngagement('home')
      if (route.byId === 'agent_activity') {
        const key = `break_${++activities}`
        await post(home, '/api/v1/agent-activities', { ...activity, key })
        targets.agent_activity.home = key
      }
    })

    test('401 without a token, with a garbage token, and with a token from another issuer', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer garbage' },
        { authorization: `Bearer ${home.users.admin.accessToken.slice(0, -4)}AAAA` },
      ]
      for (const headers of attempts) {
        const response = await call(route, target(), headers)
        expect(response.status).toBe(401)
        expect(['UNAUTHENTICATED', 'TOKEN_INVALID']).toContain((await json(response)).code as string)
      }
    })

    if (route.permission) {
      const permission = route.permission
      const lacking = ROLES.filter((role) => !hasPermission(ROLE_GRANTS[role], permission))
      test(`403 naming ${permission} for ${lacking.join(', ') || 'no role'}; never 403 for the others`, async () => {
        for (const role of ROLES) {
          const response = await call(route, target(), home.users[role].auth)
          if (lacking.includes(role)) {
            expect(response.status, role).toBe(403)
            expect(await json(response)).toMatchObject({
              code: 'INSUFFICIENT_PERMISSIONS',
              message: `This operation requires the ${permission} permission`,
            })
          } else if (route.method === 'GET') {
            expect(response.status, role).toBe(200)
          } else {
            // Writes by permitted roles may still fail their own rules (409, 403 on role coverage), but never for lack of this permission.
            const body = await json(response).catch(() => ({ message: '' }))
            expect(String(body.message), role).not.toContain(`requires the ${permission} permission`)
          }
        }
      })
    }

    if (route.byId) {
      test(`404 for a ${route.byId} of another organization, even for its Super Admin`, async () => {
        const response = await call(route, targets[route.byId!].away, home.users.super_admin.auth)
        expect(response.status).toBe(404)
        expect((await json(response)).code).toBe('NOT_FOUND')
      })
    }
  })
}

// The operator's routes (issue 18): only an operator token opens them — never a user's token, not even a
// Super Admin's — and they are counted against the client address.
interface OperatorRoute {
  method: string
  path: string
  /** The path with the ids a valid request uses. */
  real?: () => string
  body?: unknown
}
const OPERATOR_ROUTES: OperatorRoute[] = [
  { method: 'GET', path: '/api/v1/operator/plans' },
  { method: 'PUT', path: '/api/v1/operator/plans/:plan', real: () => '/api/v1/operator/plans/starter', body: { name: 'Starter' } },
  { method: 'DELETE', path: '/api/v1/operator/prices/:id', real: () => '/api/v1/operator/prices/price_00000000000000000000000000' },
  {
    method: 'POST',
    path: '/api/v1/operator/organizations/:org_id/prices',
    real: () => `/api/v1/operator/organizations/${home.org.id}/prices`,
    body: { currency: 'eur', interval: 'year', unit_amount: 100_000 },
  },
  {
    method: 'GET',
    path: '/api/v1/operator/organizations/:org_id/billing',
    real: () => `/api/v1/operator/organizations/${home.org.id}/billing`,
  },
  {
    method: 'PATCH',
    path: '/api/v1/operator/organizations/:org_id/billing',
    real: () => `/api/v1/operator/organizations/${home.org.id}/billing`,
    body: { tax_rate_bps: 0 },
  },
  {
    method: 'POST',
    path: '/api/v1/operator/organizations/:org_id/invoices',
    real: () => `/api/v1/operator/organizations/${home.org.id}/invoices`,
    body: { currency: 'usd', lines: [{ description: 'Setup', quantity: 1, unit_amount: 5000 }] },
  },
  { method: 'GET', path: '/api/v1/operator/invoices/:id', real: () => `/api/v1/operator/invoices/${targets.invoice.home}` },
  {
    method: 'POST',
    path: '/api/v1/operator/invoices/:id/finalize',
    real: () => `/api/v1/operator/invoices/${targets.invoice.home}/finalize`,
  },
  { method: 'DELETE', path: '/api/v1/operator/invoices/:id', real: () => `/api/v1/operator/invoices/${targets.invoice.home}` },
  {
    method: 'POST',
    path: '/api/v1/operator/invoices/:id/void',
    real: () => `/api/v1/operator/invoices/in_00000000000000000000000000/void`,
  },
  {
    method: 'POST',
    path: '/api/v1/operator/invoices/:id/mark-uncollectible',
    real: () => `/api/v1/operator/invoices/in_00000000000000000000000000/mark-uncollectible`,
  },
  {
    method: 'POST',
    path: '/api/v1/operator/invoices/:id/payments',
    real: () => `/api/v1/operator/invoices/in_00000000000000000000000000/payments`,
    body: { reference: 'wire' },
  },
  {
    method: 'POST',
    path: '/api/v1/operator/payments/:id/confirm',
    real: () => '/api/v1/operator/payments/pi_00000000000000000000000000/confirm',
  },
  {
    method: 'POST',
    path: '/api/v1/operator/payments/:id/cancel',
    real: () => '/api/v1/operator/payments/pi_00000000000000000000000000/cancel',
  },
  {
    method: 'POST',
    path: '/api/v1/operator/payments/:id/bounce',
    real: () => '/api/v1/operator/payments/pi_00000000000000000000000000/bounce',
    body: {},
  },
  {
    method: 'POST',
    path: '/api/v1/operator/payments/:id/refunds',
    real: () => '/api/v1/operator/payments/pi_00000000000000000000000000/refunds',
    body: {},
  },
]

for (const route of OPERATOR_ROUTES) {
  const path = () => route.real?.() ?? route.path
  const send = (headers: Record<string, string>) =>
    app.request(path(), {
      method: route.method,
      headers: { ...headers, ...(route.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: route.body === undefined ? undefined : JSON.stringify(route.body),
    })
  describe(`${route.method} ${route.path} (operator)`, () => {
    test('401 without a token, with a user token (a Super Admin), a malformed one and a revoked operator token', async () => {
      const attempts: Record<string, string>[] = [
        {},
        home.users.super_admin.auth,
        { authorization: 'Bearer sbo_garbage' },
        { authorization: `Bearer ${revoked.token}` },
      ]
      for (const headers of attempts) {
        const response = await send(headers)
        expect(response.status).toBe(401)
        expect(['UNAUTHENTICATED', 'TOKEN_INVALID']).toContain((await json(response)).code as string)
        expect(response.headers.get('x-ratelimit-limit')).toBe('1000000')
      }
    })

    test('an operator token passes (its own rules may still refuse), counted against the address', async () => {
      const response = await send(operator)
      expect([401, 403]).not.toContain(response.status)
      expect(response.status).toBeLessThan(500)
      expect(response.headers.get('x-ratelimit-limit')).toBe('1000000')
    })
  })
}

test("an operator's Idempotency-Key replays its first answer", async () => {
  const send = () =>
    app.request(`/api/v1/operator/organizations/${away.org.id}/invoices`, {
      method: 'POST',
      headers: { ...operator, 'content-type': 'application/json', 'idempotency-key': 'operator-once' },
      body: JSON.stringify({ currency: 'usd', lines: [{ description: 'Setup', quantity: 1, unit_amount: 5000 }] }),
    })
  const first = await send()
  expect(first.status).toBe(201)
  const again = await send()
  expect(again.status).toBe(201)
  expect(again.headers.get('idempotent-replayed')).toBe('true')
  expect((await json(again)).id).toBe((await json(first)).id)
})

test('every authenticated route of the API is in the table', () => {
  const table = new Set([...ROUTES.map((r) => `${r.method} ${r.path(':id')}`), ...OPERATOR_ROUTES.map((r) => `${r.method} ${r.path}`)])
  const publicRoutes = new Set([
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/refresh',
    'POST /api/v1/auth/mfa/verify',
    'POST /api/v1/auth/mfa/sms/send',
    // Signed, not authenticated: the query's HMAC signature is the credential (issue 17).
    'GET /api/v1/files/:id',
    // Twilio's status callbacks, signed with the organization's Twilio auth token (issue 17).
    'POST /api/v1/integrations/twilio/voice-status',
    // Stripe's events, signed with STRIPE_WEBHOOK_SECRET (issue 18).
    'POST /api/v1/integrations/stripe/webhook',
  ])
  const apiRoutes = app.app.routes.filter((r) => r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`)
  expect(apiRoutes.filter((r) => !publicRoutes.has(r)).sort()).toEqual([...table].sort())
  // What the rate limiter counts per user, not per address, is exactly the routes of the table.
  const routeTable = createRouteTable(app.app.routes.map(routeEntry))
  expect(
    app.app.routes
      .filter((r) => r.path.startsWith('/api/') && routeTable.isAuthenticated(r.method, r.path))
      .map((r) => `${r.method} ${r.path}`)
      .sort(),
  ).toEqual([...table].sort())
})
