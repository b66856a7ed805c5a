// What a user's grants stand for, one `resource:action` each: a wildcard (`ticket:*`, `*:*`) expanded over
// the vocabulary the API lists (GET /api/v1/permissions), so a key can be narrowed to any part of it.
import { allows } from '../../ui.tsx'

/** The permissions of `vocabulary` that `grants` allow, in the vocabulary's order. */
export function expandGrants(grants: readonly string[], vocabulary: readonly string[]): string[] {
  return vocabulary.filter((permission) => allows(grants, permission))
}

/** Permissions grouped by resource, in their order: `[['ticket', ['ticket:read', …]], …]`. */
export function byResource(permissions: readonly string[]): [string, string[]][] {
  const groups = new Map<string, string[]>()
  for (const permission of permissions) {
    const resource = permission.slice(0, permission.indexOf(':'))
    groups.set(resource, [...(groups.get(resource) ?? []), permission])
  }
  return [...groups]
}

/** A resource's name as people read it: `api_key` → `API key`, `oauth_client` → `OAuth client`. */
export function resourceLabel(resource: string): string {
  const special: Record<string, string> = { api_key: 'API key', oauth_client: 'OAuth client' }
  const words = resource.replaceAll('_', ' ')
  return special[resource] ?? words.charAt(0).toUpperCase() + words.slice(1)
}
