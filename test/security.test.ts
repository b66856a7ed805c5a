// Security cases for every authenticated route of the API, table-driven: 401 without or with a bad
// token, 403 for each role that lacks the route's permission, and 404 for a resource of another
// organization. A test at the end fails when a route is added without a row here.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { routeEntry } from '../src/app.ts'
import { prefixedId } from '../src/lib/ids.ts'
import { createRouteTable } from '../src/lib/route-match.ts'
import { hasPermission } from '../src/modules/access/match.ts'
import { ROLE_GRANTS, ROLES, type Permission } from '../src/modules/access/permissions.ts'
import { json, makeTestApp } from './helpers/app.ts'
import { seedOrganization } from './helpers/seed.ts'

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
}

interface Route {
  method: string
  path: (id: string) => string
  /** null: any authenticated user. */
  permission: Permission | null
  body?: unknown
  /** A CSV file as the body (Content-Type text/csv) instead of JSON. */
  csv?: string
  /** The kind of resource the route addresses by id: another organization's must answer 404. */
  byId?: keyof typeof targets
}

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/api/v1/me', permission: null },
  { method: 'GET', path: () => '/api/v1/roles', permission: 'role:read' },
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
]

const call = async (route: Route, id: string, headers: Record<string, string>) => {
  const response = await app.request(route.path(id), {
    method: route.method,
    headers: {
      ...headers,
      ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(route.csv === undefined ? {} : { 'content-type': 'text/csv' }),
    },
    body: route.csv ?? (route.body === undefined ? undefined : JSON.stringify(route.body)),
  })
  // Authenticated requests count against the user (1,000,000), the others against the address (the same figure here).
  expect(response.headers.get('x-ratelimit-limit'), `${route.method} ${route.path(id)} -> ${response.status}`).toBe('1000000')
  expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(990_000)
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

test('every authenticated route of the API is in the table', () => {
  const table = new Set(ROUTES.map((r) => `${r.method} ${r.path(':id')}`))
  const publicRoutes = new Set([
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/refresh',
    'POST /api/v1/auth/mfa/verify',
    'POST /api/v1/auth/mfa/sms/send',
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
