// listAuditLogs: the organization's audit records, newest first, filtered by event, actor and time,
// keyset-paginated. Each record carries its hash and the previous one, so anyone can check the chain.
import type { AppDeps, UserActor } from '../../context.ts'
import type { Condition } from '../../db/keyset.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import { validationError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import type { ChainedFields } from './chain.ts'

type AuditRow = ChainedFields & { prev_hash: string; hash: string }

const LIST: ListDefinition<AuditRow> = {
  resource: 'audit_logs',
  columns: '*',
  from: 'audit_logs',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export interface AuditFilters {
  event?: string
  actor_id?: string
  since?: string
  until?: string
}

function time(field: 'since' | 'until', value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = parseDateTime(value)
  if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
  return ms
}

export function auditLogJson(r: AuditRow) {
  return {
    id: r.id,
    seq: r.seq,
    created_at: isoTime(r.created_at),
    organization_id: r.organization_id,
    actor: { type: r.actor_type, id: r.actor_id },
    credential_id: r.credential_id,
    event: r.event,
    outcome: r.outcome as 'success' | 'failure',
    reason: r.reason,
    ip: r.ip,
    user_agent: r.user_agent,
    request_id: r.request_id,
    target: r.target_type === null ? null : { type: r.target_type, id: r.target_id },
    details: JSON.parse(r.details) as Record<string, unknown>,
    prev_hash: r.prev_hash,
    hash: r.hash,
  }
}

export function listAuditLogs(deps: Pick<AppDeps, 'sqlite' | 'pageTokens'>, actor: UserActor, filters: AuditFilters, request: ListRequest) {
  const since = time('since', filters.since)
  const until = time('until', filters.until)
  if (since !== undefined && until !== undefined && since > until) throw validationError([{ field: 'until', message: 'must not be before since' }])
  const where: Condition[] = [{ sql: 'organization_id = ?', params: [actor.organizationId] }]
  if (filters.event !== undefined) where.push({ sql: 'event = ?', params: [filters.event] })
  if (filters.actor_id !== undefined) where.push({ sql: 'actor_id = ?', params: [filters.actor_id] })
  if (since !== undefined) where.push({ sql: 'created_at >= ?', params: [since] })
  if (until !== undefined) where.push({ sql: 'created_at < ?', params: [until] })
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: { ...filters }, where })
  return listBody('audit_logs', page, auditLogJson)
}
