// What the ticket verbs share: the assignee check, tag and custom-field rules, and recording a ticket
// event (with its audit record and webhook deliveries) in the verb's transaction, which also keeps the
// agents' loads right (an assignee's open tickets count in its load: agents module, capacity).
import type { Ctx } from '../../context.ts'
import type { Queries, Tx } from '../../db/database.ts'
import { validationError } from '../../errors.ts'
import { refreshAgentLoadInTx } from '../agents/index.ts'
import { type EventType, recordChange } from '../events/index.ts'
import { findUserInOrg } from '../users/index.ts'
import { TICKET_NUMBER_SQL, type TicketRow } from './store.ts'
import { ticketJson } from './ticket-json.ts'

export const MAX_CUSTOM_FIELDS_BYTES = 8 * 1024

/** The assignee must be an active user of the same organization. */
export async function assertAssignable(db: Queries, organizationId: string, userId: string): Promise<void> {
  if ((await findUserInOrg(db, organizationId, userId))?.status !== 'active')
    throw validationError([{ field: 'assignee_id', message: 'is not an active user of this organization' }])
}

/** Tags are stored lowercased, once each, in the order given. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim().toLowerCase()))]
}

export function checkCustomFields(fields: Record<string, unknown>): string {
  const text = JSON.stringify(fields)
  if (Buffer.byteLength(text) > MAX_CUSTOM_FIELDS_BYTES)
    throw validationError([{ field: 'custom_fields', message: `must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON` }])
  return text
}

/** A ticket event: data.ticket plus `extra`; the audit record keeps the changed fields. */
export async function recordTicketEvent(
  tx: Tx,
  ctx: Ctx,
  type: EventType,
  ticket: TicketRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: ticket.organization_id,
    target: { type: 'ticket', id: ticket.id },
    data: { ticket: ticketJson(ticket), ...extra },
    details: Array.isArray(extra.changed) ? { changed: extra.changed } : {},
    now,
    // A ticket created in this transaction has its placeholder number until the commit pipeline.
    ...(ticket.number < 0 && { late: { text: `"number":${ticket.number}`, sql: TICKET_NUMBER_SQL, params: [ticket.id] } }),
  })
  const userIds = loadChangedFor(type, ticket, extra)
  if (userIds.length > 0) await refreshAgentLoadInTx(tx, ctx, { organizationId: ticket.organization_id, userIds, now })
}

/**
 * Whose load the event may change: the new and the previous assignee of an assignment (a creation with
 * an assignee records one too), the assignee of a status change (solving, closing, reopening, the
 * auto-close). ticket.resolved follows its ticket.updated; a comment changes no load.
 */
function loadChangedFor(type: EventType, ticket: TicketRow, extra: Record<string, unknown>): (string | null)[] {
  if (type === 'ticket.assigned') return [ticket.assignee_id, (extra.previous_assignee_id as string | null | undefined) ?? null]
  if (type === 'ticket.updated' && Array.isArray(extra.changed) && extra.changed.includes('status')) return [ticket.assignee_id]
  return []
}

/** After a ticket is deleted: its assignee's load no longer counts it. */
export async function refreshAssigneeLoad(tx: Tx, ctx: Ctx, ticket: TicketRow, now: number): Promise<void> {
  await refreshAgentLoadInTx(tx, ctx, { organizationId: ticket.organization_id, userIds: [ticket.assignee_id], now })
}
