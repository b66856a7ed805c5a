// The access module's public entry: the roles and permissions as data, the matching rules, the checks
// services and routes share, GET /api/v1/roles (the five roles and what each grants) and
// GET /api/v1/permissions (the vocabulary, which a wildcard grant stands for).
// The pure re-exports come first: they must be evaluated before any module that imports them through
// this file while the route's own imports (http/auth.ts) are still loading.
export {
  ALL_PERMISSIONS,
  type Grant,
  isRole,
  type Permission,
  type Resource,
  type Role,
  ROLE_GRANTS,
  ROLES,
  SCOPES,
  VOCABULARY,
} from './permissions.ts'
export { coversGrant, coversRole, hasPermission, intersectGrants, isGrant, roleGrants } from './match.ts'
export { requirePermission, requireSession } from './require.ts'

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { PermissionsBody, RolesBody } from './model.ts'
import { ALL_PERMISSIONS, ROLE_GRANTS, ROLES } from './permissions.ts'

/** Needs no data: the roles are constants; the app only for the auth macros. */
export function accessRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1' })
    .use(authMacros(app))
    .get('/roles', () => ({ roles: ROLES.map((name) => ({ name, permissions: [...ROLE_GRANTS[name]] })) }), {
      permission: 'role:read',
      response: { 200: RolesBody, ...protectedErrors() },
      detail: { tags: ['Users'], operationId: 'listRoles', summary: 'List roles and their permissions' },
    })
    .get('/permissions', () => ({ permissions: [...ALL_PERMISSIONS] }), {
      auth: true,
      response: { 200: PermissionsBody, ...protectedErrors() },
      detail: {
        tags: ['Users'],
        operationId: 'listPermissions',
        summary: 'List every permission',
        description:
          'Every `resource:action` of the API, for any signed-in user: what a wildcard grant such as `ticket:*` or `*:*` stands for, and what a personal access token may be narrowed to.',
      },
    })
}
