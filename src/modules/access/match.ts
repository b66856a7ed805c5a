// Permission matching: `*:*` covers everything, `ticket:*` every ticket action; nothing else is a wildcard.
import { ROLE_GRANTS, VOCABULARY, type Grant, type Permission, type Resource, type Role } from './permissions.ts'

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

/**
 * What both `a` and `b` allow, written back with wildcards where a whole resource (or everything) is
 * covered, so coversGrant() and coversRole() treat the result like any role's grants.
 */
export function intersectGrants(a: readonly string[], b: readonly string[]): Grant[] {
  const out: Grant[] = []
  let everything = true
  for (const resource of Object.keys(VOCABULARY) as Resource[]) {
    const actions = VOCABULARY[resource] as readonly string[]
    const both = actions.filter(
      (action) => hasPermission(a, `${resource}:${action}` as Permission) && hasPermission(b, `${resource}:${action}` as Permission),
    )
    if (both.length === actions.length) out.push(`${resource}:*`)
    else {
      everything = false
      out.push(...both.map((action) => `${resource}:${action}` as Grant))
    }
  }
  return everything ? ['*:*'] : out
}

/** True when `text` is a permission of the vocabulary, `resource:*` of a known resource, or `*:*`. */
export function isGrant(text: string): text is Grant {
  if (text === '*:*') return true
  const [resource, action, extra] = text.split(':')
  // Own keys only: `in` would also find what every object inherits (toString, constructor, __proto__),
  // letting "constructor:*" through and making "toString:read" throw.
  if (extra !== undefined || resource === undefined || action === undefined || !Object.hasOwn(VOCABULARY, resource)) return false
  return action === '*' || (VOCABULARY[resource as Resource] as readonly string[]).includes(action)
}
