// listAuditLogs: the organization's audit records, newest first, filtered by event, actor and time,
// keyset-paginated. Each record carries its hash and the previous one, so anyone can check the chain.
import type { Ctx, UserActor } from '../../context.ts'
import type { Condition, ListRequest, Page } from '../../db/list.ts'
import { validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { AUDIT_LIST, type AuditRow } from './store.ts'

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

export async function listAuditLogs(ctx: Ctx<UserActor>, filters: AuditFilters, request: ListRequest): Promise<Page<AuditRow>> {
  const since = time('since', filters.since)
  const until = time('until', filters.until)
  if (since !== undefined && until !== undefined && since > until)
    throw validationError([{ field: 'until', message: 'must not be before since' }])
  // The list adds the organization condition itself.
  const where: Condition[] = []
  if (filters.event !== undefined) where.push({ sql: 'audit_logs.event = ?', params: [filters.event] })
  if (filters.actor_id !== undefined) where.push({ sql: 'audit_logs.actor_id = ?', params: [filters.actor_id] })
  if (since !== undefined) where.push({ sql: 'audit_logs.created_at >= ?', params: [since] })
  if (until !== undefined) where.push({ sql: 'audit_logs.created_at < ?', params: [until] })
  return AUDIT_LIST.page(ctx.db, ctx.pageTokens, request, { organizationId: ctx.actor.organizationId, filters: { ...filters }, where })
}
