// The organizations module's public entry: GET and PATCH /api/v1/organization/security, and what other
// modules use: creation inside a transaction (first start, CLI), lookups, the security settings, and the
// IP allowlists (parsed-list cache and denial-log throttle, for the auth module's check at the door).
// The re-exports come first (see access/index.ts).
export { assertIpAllowed, checkIp, type Who } from './ip-gate.ts'
export { Allowlists, ipAllowed, MAX_ALLOWLIST_ENTRIES, parseAllowlist } from './allowlist.ts'
export { createOrganization, getOrganization, organizationJson } from './create-organization.ts'
export { anyOrganization, findOrganization, type OrganizationRow } from './store.ts'
export { type OrganizationsTable, PLANS, type Plan, SESSION_LIMIT_POLICIES, type SessionLimitPolicy } from './table.ts'
export { applySecurity, checkAllowlist, type SecurityChanges, securityJson, updateSecurity } from './update-security.ts'

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { getOrganization } from './create-organization.ts'
import { SecurityBody, UpdateSecurityBody } from './model.ts'
import { securityJson, updateSecurity } from './update-security.ts'

export function organizationRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/organization' })
    .use(authMacros(app))
    .get('/security', async ({ ctx, actor }) => securityJson(await getOrganization(ctx.db, actor.organizationId)), {
      permission: 'organization:read',
      response: { 200: SecurityBody, ...protectedErrors() },
      detail: {
        tags: ['Organization'],
        operationId: 'getOrganizationSecurity',
        summary: 'Security settings: IP allowlist, session limit, MFA requirement',
      },
    })
    .patch('/security', async ({ ctx, body }) => securityJson(await updateSecurity(ctx, body)), {
      permission: 'organization:update',
      body: UpdateSecurityBody,
      response: { 200: SecurityBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
      detail: {
        tags: ['Organization'],
        operationId: 'updateOrganizationSecurity',
        summary: 'Change security settings',
        description:
          "Only the fields sent change. An allowlist that does not include the caller's own address is refused (409) unless `force` is true. " +
          'Every authenticated request of the organization (login, MFA, refresh, API keys, API calls) from outside a non-empty allowlist gets 403 IP_NOT_ALLOWED.',
      },
    })
}
