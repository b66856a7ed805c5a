// Security cases for every authenticated route, table-driven: 401 without or with a bad token, 403 for
// each role that lacks the route's permission, and 404 for a resource of another organization.
import { afterAll, describe, expect, test } from 'bun:test'
import { hasPermission } from '../../../src/modules/access/match.ts'
import { ROLE_GRANTS, ROLES, type Permission } from '../../../src/modules/access/permissions.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const home = await seedOrganization(app, 'home')
const away = await seedOrganization(app, 'away')
// The user the by-id routes address: not one of the callers, so a permitted DELETE cannot lock a caller out.
const targetResponse = await app.request('/api/v1/users', {
  method: 'POST',
  headers: { ...home.users.super_admin.auth, 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'target@home.test', name: 'Target', password: 'password-123', role: 'viewer' }),
})
const target = (await json<{ id: string }>(targetResponse)).id

interface Route {
  method: string
  path: (id: string) => string
  /** null: any authenticated user. */
  permission: Permission | null
  body?: unknown
  /** The route addresses a user by id: another organization's user must answer 404. */
  byId?: boolean
}

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/api/v1/me', permission: null },
  { method: 'GET', path: () => '/api/v1/roles', permission: 'role:read' },
  { method: 'POST', path: () => '/api/v1/users', permission: 'user:create', body: { email: 'x@home.test', name: 'X', password: 'password-123', role: 'viewer' } },
  { method: 'GET', path: (id) => `/api/v1/users/${id}`, permission: 'user:read', byId: true },
  { method: 'PATCH', path: (id) => `/api/v1/users/${id}`, permission: 'user:update', body: { name: 'Renamed' }, byId: true },
  { method: 'DELETE', path: (id) => `/api/v1/users/${id}`, permission: 'user:delete', byId: true },
  { method: 'POST', path: () => '/api/v1/auth/password', permission: null, body: { current_password: 'x', new_password: 'password-456' } },
  { method: 'POST', path: () => '/api/v1/auth/logout', permission: null },
]

const call = (route: Route, id: string, headers: Record<string, string>) =>
  app.request(route.path(id), {
    method: route.method,
    headers: { ...headers, ...(route.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: route.body === undefined ? undefined : JSON.stringify(route.body),
  })

for (const route of ROUTES) {
  const name = `${route.method} ${route.path(':id')}`
  describe(name, () => {
    test('401 without a token, with a garbage token, and with a token from another issuer', async () => {
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer garbage' }, { authorization: `Bearer ${home.users.admin.accessToken.slice(0, -4)}AAAA` }]
      for (const headers of attempts) {
        const response = await call(route, target, headers)
        expect(response.status).toBe(401)
        expect(['UNAUTHENTICATED', 'TOKEN_INVALID']).toContain((await json(response)).code as string)
      }
    })

    if (route.permission) {
      const permission = route.permission
      const lacking = ROLES.filter((role) => !hasPermission(ROLE_GRANTS[role], permission))
      test(`403 naming ${permission} for ${lacking.join(', ') || 'no role'}; never 403 for the others`, async () => {
        for (const role of ROLES) {
          const response = await call(route, target, home.users[role].auth)
          if (lacking.includes(role)) {
            expect(response.status, role).toBe(403)
            expect(await json(response)).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', message: `This operation requires the ${permission} permission` })
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
      test('404 for a user of another organization, even for its Super Admin', async () => {
        const response = await call(route, away.users.agent.user.id, home.users.super_admin.auth)
        expect(response.status).toBe(404)
        expect((await json(response)).code).toBe('NOT_FOUND')
      })
    }
  })
}

test('every authenticated route of the API is in the table', () => {
  const table = new Set(ROUTES.map((r) => `${r.method} ${r.path(':id')}`))
  const publicRoutes = new Set(['POST /api/v1/auth/login', 'POST /api/v1/auth/refresh'])
  const apiRoutes = app.app.routes.filter((r) => r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`)
  expect(apiRoutes.filter((r) => !publicRoutes.has(r)).sort()).toEqual([...table].sort())
})
