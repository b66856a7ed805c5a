// GET /api/v1/roles: the five roles and what each grants.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { RolesBody } from './model.ts'
import { ROLE_GRANTS, ROLES } from './permissions.ts'

export function accessRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1' }).use(authMacros(deps)).get('/roles', () => ({ roles: ROLES.map((name) => ({ name, permissions: [...ROLE_GRANTS[name]] })) }), {
    permission: 'role:read',
    response: { 200: RolesBody, ...protectedErrors() },
    detail: { tags: ['Users'], operationId: 'listRoles', summary: 'List roles and their permissions' },
  })
}
