// Permission matching: `*:*` covers everything, `ticket:*` every ticket action; nothing else is a wildcard.
import { ROLE_GRANTS, type Grant, type Permission, type Role } from './permissions.ts'

/** True when `grants` allow `permission`. */
export function hasPermission(grants: readonly string[], permission: Permission): boolean {
  const resource = permission.slice(0, permission.indexOf(':'))
  return grants.includes(permission) || grants.includes('*:*') || grants.includes(`${resource}:*`)
}

/** True when `grants` include everything `grant` stands for (a wildcard needs an equal or wider wildcard). */
export function coversGrant(grants: readonly string[], grant: Grant): boolean {
  if (grant === '*:*') return grants.includes('*:*')
  if (grant.endsWith(':*')) return grants.includes('*:*') || grants.includes(grant)
  return hasPermission(grants, grant as Permission)
}

/** True when every grant of `role` is held by `grants`: whoever holds `grants` may hand out `role`. */
export function coversRole(grants: readonly string[], role: Role): boolean {
  return ROLE_GRANTS[role].every((grant) => coversGrant(grants, grant))
}

export function roleGrants(role: Role): readonly Grant[] {
  return ROLE_GRANTS[role]
}
