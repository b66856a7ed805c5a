// listTickets: the tickets the caller may see, filtered (status, priority, assignee or "none", tag,
// creation window) before keyset pagination. Raw SQL on purpose: this is the hottest read path.
import type { Database } from 'bun:sqlite'
import type { UserActor } from '../../context.ts'
import type { Condition } from '../../db/keyset.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import type { PageTokens } from '../../db/page-tokens.ts'
import { validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { priorityRank, type TicketPriority, type TicketStatus } from './lifecycle.ts'
import { TICKET_COLUMNS, ticketJson, type TicketRow } from './ticket-json.ts'
import { ticketScope } from './visibility.ts'

export const TICKET_SORTS = ['created_at', 'updated_at', 'priority', 'number'] as const

export const TICKET_LIST: ListDefinition<TicketRow> = {
  resource: 'tickets',
  columns: TICKET_COLUMNS,
  from: 'tickets',
  idExpr: 'id',
  sorts: {
    created_at: { expr: 'created_at', value: (r) => r.created_at },
    updated_at: { expr: 'updated_at', value: (r) => r.updated_at },
    priority: { expr: 'priority', value: (r) => r.priority },
    number: { expr: 'number', value: (r) => r.number },
  },
  id: (r) => r.id,
}

export interface TicketFilters {
  status?: TicketStatus
  priority?: TicketPriority
  /** A user id, or "none" for unassigned tickets. */
  assignee_id?: string
  tag?: string
  /** RFC 3339 times; both exclusive. */
  created_after?: string
  created_before?: string
}

export function ticketFilterConditions(filters: TicketFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status !== undefined) where.push({ sql: 'status = ?', params: [filters.status] })
  if (filters.priority !== undefined) where.push({ sql: 'priority = ?', params: [priorityRank(filters.priority)] })
  if (filters.assignee_id === 'none') where.push({ sql: 'assignee_id IS NULL', params: [] })
  else if (filters.assignee_id !== undefined) where.push({ sql: 'assignee_id = ?', params: [filters.assignee_id] })
  if (filters.tag !== undefined) {
    where.push({ sql: 'id IN (SELECT ticket_id FROM ticket_tags WHERE organization_id = tickets.organization_id AND tag = ?)', params: [filters.tag.trim().toLowerCase()] })
  }
  for (const field of ['created_after', 'created_before'] as const) {
    const text = filters[field]
    if (text === undefined) continue
    const ms = parseDateTime(text)
    if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
    where.push({ sql: field === 'created_after' ? 'created_at > ?' : 'created_at < ?', params: [ms] })
  }
  return where
}

export function listTickets(deps: { sqlite: Database; pageTokens: PageTokens }, actor: UserActor, filters: TicketFilters, request: ListRequest) {
  const page = paginate(deps.sqlite, deps.pageTokens, TICKET_LIST, request, {
    organizationId: actor.organizationId,
    filters: { ...filters },
    where: [...ticketScope(actor), ...ticketFilterConditions(filters)],
  })
  return listBody('tickets', page, ticketJson)
}
