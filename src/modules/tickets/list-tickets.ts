// listTickets: the tickets the caller may see, filtered (status, priority, assignee or "none", tag,
// creation window) before keyset pagination. Raw SQL on purpose: this is the hottest read path.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../db/list.ts'
import { validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { priorityRank, type TicketPriority, type TicketStatus } from './lifecycle.ts'
import { TICKET_LIST, taggedCondition } from './store.ts'
import { ticketJson } from './ticket-json.ts'
import { ticketScope } from './visibility.ts'

export const TICKET_SORTS = TICKET_LIST.sorts

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
  if (filters.status !== undefined) where.push({ sql: 'tickets.status = ?', params: [filters.status] })
  if (filters.priority !== undefined) where.push({ sql: 'tickets.priority = ?', params: [priorityRank(filters.priority)] })
  if (filters.assignee_id === 'none') where.push({ sql: 'tickets.assignee_id IS NULL', params: [] })
  else if (filters.assignee_id !== undefined) where.push({ sql: 'tickets.assignee_id = ?', params: [filters.assignee_id] })
  if (filters.tag !== undefined) where.push(taggedCondition(filters.tag.trim().toLowerCase()))
  for (const field of ['created_after', 'created_before'] as const) {
    const text = filters[field]
    if (text === undefined) continue
    const ms = parseDateTime(text)
    if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
    where.push({ sql: field === 'created_after' ? 'tickets.created_at > ?' : 'tickets.created_at < ?', params: [ms] })
  }
  return where
}

export async function listTickets(ctx: Ctx<UserActor>, input: { filters: TicketFilters; request: ListRequest }) {
  const { actor } = ctx
  const page = await TICKET_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: actor.organizationId,
    filters: { ...input.filters },
    where: [...ticketScope(actor), ...ticketFilterConditions(input.filters)],
  })
  return listBody('tickets', page, ticketJson)
}
