// Scopes and grant types as data: the OpenID scopes, the resource scopes and the permissions each one stands for, and who may register which.
import { type Grant, hasPermission, intersectGrants, type Permission } from '../access/index.ts'

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const
export type GrantType = (typeof GRANT_TYPES)[number]

/** OpenID Connect scopes: claims and refresh tokens, no permission of their own. */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const

/**
 * Resource scopes and the permissions they stand for. A third-party token holds the user's (or, for
 * client_credentials, the creator's) current permissions narrowed to those of its scopes.
 */
export const RESOURCE_SCOPES: Readonly<Record<string, readonly Permission[]>> = {
  'tickets:read': ['ticket:read'],
  'tickets:write': ['ticket:create', 'ticket:update', 'ticket:comment'],
  'users:read': ['user:read'],
}

export const ALL_SCOPES: readonly string[] = [...OIDC_SCOPES, ...Object.keys(RESOURCE_SCOPES)]

export function isScope(text: string): boolean {
  return ALL_SCOPES.includes(text)
}

/** The permissions `scopes` stand for (OpenID scopes stand for none). */
export function permissionsOfScopes(scopes: readonly string[]): Permission[] {
  return [...new Set(scopes.flatMap((scope) => RESOURCE_SCOPES[scope] ?? []))]
}

/** The permissions of `scope` that `grants` do not hold: a client's scopes never exceed its creator's. */
export function missingPermissions(grants: readonly string[], scope: string): Permission[] {
  return (RESOURCE_SCOPES[scope] ?? []).filter((permission) => !hasPermission(grants, permission))
}

/** What a holder of `grants` may do through a token of `scopes`: the grants narrowed to the scopes' permissions. */
export function grantsWithinScopes(grants: readonly string[], scopes: readonly string[]): Grant[] {
  const permissions = permissionsOfScopes(scopes)
  return permissions.length === 0 ? [] : intersectGrants(grants, permissions)
}
