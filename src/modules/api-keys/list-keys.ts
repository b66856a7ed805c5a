// listApiKeys: the caller's API keys that are not revoked (expired ones included, marked), newest first.
import type { AppDeps, UserActor } from '../../context.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import { apiKeyJson } from './key-json.ts'

interface KeyListRow {
  id: string
  name: string
  prefix: string
  permissions: string | null
  created_at: number
  expires_at: number
  last_used_at: number | null
  last_used_ip: string | null
}

const LIST: ListDefinition<KeyListRow> = {
  resource: 'api_keys',
  columns: 'id, name, prefix, permissions, created_at, expires_at, last_used_at, last_used_ip',
  from: 'api_keys',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export function listApiKeys(deps: Pick<AppDeps, 'sqlite' | 'pageTokens' | 'clock'>, actor: UserActor, request: ListRequest) {
  const where = [
    { sql: 'organization_id = ?', params: [actor.organizationId] },
    { sql: 'user_id = ?', params: [actor.userId] },
    { sql: 'revoked_at IS NULL', params: [] },
  ]
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: { user_id: actor.userId }, where })
  const now = deps.clock.now()
  return listBody('api_keys', page, (r) =>
      apiKeyJson(
        {
          id: r.id,
          name: r.name,
          prefix: r.prefix,
          permissions: r.permissions === null ? null : (JSON.parse(r.permissions) as string[]),
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          lastUsedAt: r.last_used_at,
          lastUsedIp: r.last_used_ip,
        },
        now,
      ),)
}
