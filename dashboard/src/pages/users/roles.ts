// The five roles as people read them, and which of them the signed-in user may hand out or manage: only a
// role whose every grant the user holds (the API's rule, from GET /api/v1/roles; it still decides).
import type { operations, Schemas } from '../../../../clients/typescript/src/index.ts'
import { allows } from '../../ui.tsx'

export type Role = Schemas['User']['role']
export type UserItem = operations['listUsers']['responses'][200]['content']['application/json']['users'][number]

/** Most privileged first; a Record, so a role the API adds fails the typecheck until it is named here. */
export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Admin',
  admin: 'Admin',
  supervisor: 'Supervisor',
  agent: 'Agent',
  viewer: 'Viewer',
}
export const ROLES = Object.keys(ROLE_LABELS) as Role[]

/** `grants` include everything `grant` stands for: a wildcard needs an equal or wider one. */
function coversGrant(grants: readonly string[], grant: string): boolean {
  if (grant === '*:*') return grants.includes('*:*')
  if (grant.endsWith(':*')) return grants.includes('*:*') || grants.includes(grant)
  return allows(grants, grant)
}

/**
 * Whether the holder of `grants` may give (or manage a user of) `role`. Without the roles' grants (no
 * role:read) every role is offered and the API's answer says which it refuses.
 */
export function coversRole(grants: readonly string[], role: Role, roles: { name: string; permissions: string[] }[] | undefined): boolean {
  const granted = roles?.find((r) => r.name === role)?.permissions
  return granted === undefined || granted.every((grant) => coversGrant(grants, grant))
}
