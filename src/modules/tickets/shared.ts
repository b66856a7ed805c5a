// What the ticket verbs share: the assignee check, tag storage, custom-field bounds, and writing a
// ticket event together with its audit entry.
import { and, eq } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { Tx } from '../../db/tx.ts'
import { validationError } from '../../errors.ts'
import { actorOf, audit, SYSTEM_ACTOR } from '../audit/record.ts'
import type { EventType } from '../events/catalog.ts'
import { emit } from '../events/emit.ts'
import { users } from '../users/table.ts'
import { ticketTags } from './table.ts'
import { ticketJson, type TicketRow } from './ticket-json.ts'

export const MAX_CUSTOM_FIELDS_BYTES = 8 * 1024

/** The assignee must be an active user of the same organization. */
export function assertAssignable(tx: Tx, organizationId: string, userId: string): void {
  const user = tx.select({ status: users.status }).from(users).where(and(eq(users.id, userId), eq(users.organizationId, organizationId))).get()
  if (user?.status !== 'active') throw validationError([{ field: 'assignee_id', message: 'is not an active user of this organization' }])
}

/** Tags are stored lowercased, once each, in the order given. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim().toLowerCase()))]
}

export function checkCustomFields(fields: Record<string, unknown>): string {
  const text = JSON.stringify(fields)
  if (Buffer.byteLength(text) > MAX_CUSTOM_FIELDS_BYTES) throw validationError([{ field: 'custom_fields', message: `must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON` }])
  return text
}

export function replaceTags(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>, tags: readonly string[]): void {
  tx.delete(ticketTags).where(eq(ticketTags.ticket_id, ticket.id)).run()
  if (tags.length > 0) tx.insert(ticketTags).values(tags.map((tag) => ({ ticket_id: ticket.id, organization_id: ticket.organization_id, tag }))).run()
}

/** Writes a ticket event (data.ticket plus `extra`) and the matching audit entry, in the caller's transaction. */
export function recordTicketEvent(tx: Tx, actor: UserActor | null, type: EventType, ticket: TicketRow, now: number, extra: Record<string, unknown> = {}): void {
  emit(tx, { organizationId: ticket.organization_id, type, data: { ticket: ticketJson(ticket), ...extra }, now })
  audit(tx, {
    organizationId: ticket.organization_id,
    actor: actor ? actorOf(actor) : SYSTEM_ACTOR,
    event: type,
    target: { type: 'ticket', id: ticket.id },
    details: Array.isArray(extra.changed) ? { changed: extra.changed } : {},
    request: actor?.request,
    now,
  })
}
