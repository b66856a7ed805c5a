// Routes of the caller's organization: GET and PATCH /api/v1/organization/security.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { SecurityBody, UpdateSecurityBody } from './model.ts'
import { getOrganizationInScope, securityJson, updateSecurity } from './security.ts'

export function organizationRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1/organization' })
    .use(authMacros(deps))
    .get('/security', ({ actor }) => securityJson(getOrganizationInScope(deps.db, actor.organizationId)), {
      permission: 'organization:read',
      response: { 200: SecurityBody, ...protectedErrors() },
      detail: { tags: ['Organization'], operationId: 'getOrganizationSecurity', summary: 'Security settings: IP allowlist, session limit, MFA requirement' },
    })
    .patch('/security', ({ actor, body }) => securityJson(updateSecurity(deps, actor, body, deps.clock.now())), {
      permission: 'organization:update',
      body: UpdateSecurityBody,
      response: { 200: SecurityBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
      detail: {
        tags: ['Organization'],
        operationId: 'updateOrganizationSecurity', summary: 'Change security settings',
        description:
          'Only the fields sent change. An allowlist that does not include the caller\'s own address is refused (409) unless `force` is true. ' +
          'Every authenticated request of the organization (login, MFA, refresh, API keys, API calls) from outside a non-empty allowlist gets 403 IP_NOT_ALLOWED.',
      },
    })
}
