// listSessions: the live sessions of a user (the caller's own, or, with session:read, another user's
// of the same organization), newest first, keyset-paginated.
import type { AppDeps, UserActor } from '../../context.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import { requirePermission } from '../access/require.ts'
import { isoTime } from '../../lib/clock.ts'
import { getUserInOrg } from '../users/get-user.ts'

interface SessionListRow {
  id: string
  user_id: string
  ip: string | null
  user_agent: string | null
  created_at: number
  last_used_at: number
  expires_at: number
  auth_methods: string
  mfa_enrollment_only: number
}

const LIST: ListDefinition<SessionListRow> = {
  resource: 'sessions',
  columns: 'id, user_id, ip, user_agent, created_at, last_used_at, expires_at, auth_methods, mfa_enrollment_only',
  from: 'sessions',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export function listSessions(deps: Pick<AppDeps, 'sqlite' | 'pageTokens' | 'db' | 'clock'>, actor: UserActor, userId: string | undefined, request: ListRequest) {
  const target = userId ?? actor.userId
  if (target !== actor.userId) {
    requirePermission(actor, 'session:read')
    getUserInOrg(deps.db, actor.organizationId, target)
  }
  const where = [
    { sql: 'organization_id = ?', params: [actor.organizationId] },
    { sql: 'user_id = ?', params: [target] },
    { sql: 'revoked_at IS NULL AND expires_at > ?', params: [deps.clock.now()] },
  ]
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: { user_id: target }, where })
  const current = actor.credential.type === 'session' ? actor.credential.id : undefined
  return listBody('sessions', page, (r) => ({
      id: r.id,
      user_id: r.user_id,
      current: r.id === current,
      ip: r.ip,
      user_agent: r.user_agent,
      auth_methods: JSON.parse(r.auth_methods) as string[],
      mfa_enrollment_only: r.mfa_enrollment_only === 1,
      created_at: isoTime(r.created_at),
      last_seen_at: isoTime(r.last_used_at),
      expires_at: isoTime(r.expires_at),
    }))
}
