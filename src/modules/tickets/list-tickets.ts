// listTickets: the tickets the caller may see, filtered (status, priority, assignee or "none", contact,
// tag, creation window) before keyset pagination; listContactTickets: those of one contact (GET
// /contacts/{id}/tickets), under the same visibility. Raw SQL on purpose: this is the hottest read path.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../db/list.ts'
import { getContact } from '../crm/index.ts'
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
  contact_id?: string
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
  if (filters.contact_id !== undefined) where.push({ sql: 'tickets.contact_id = ?', params: [filters.contact_id] })
  if (filters.tag !== undefined) where.push(taggedCondition(filters.tag.trim().toLowerCase()))
  where.push(...timeWindowConditions(filters, { created_after: 'tickets.created_at > ?', created_before: 'tickets.created_at < ?' }))
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

/** The tickets of a live contact of the organization (404 otherwise) the caller may see. */
export async function listContactTickets(ctx: Ctx<UserActor>, input: { contactId: string; request: ListRequest }) {
  const contact = await getContact(ctx.db, ctx.actor.organizationId, input.contactId)
  // The contact is part of the filters: a token of one contact's tickets is refused on another's.
  return listTickets(ctx, { filters: { contact_id: contact.id }, request: input.request })
}
