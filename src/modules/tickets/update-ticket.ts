// updateTicket: field and status changes under the lifecycle; ticket.updated names the changed fields,
// and entering `solved` also writes ticket.resolved. Also closeSolvedTickets for the cron loop.
import { and, asc, eq, lte } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write, type Tx } from '../../db/tx.ts'
import { assertNotClosed, assertTransition, priorityRank, type TicketPriority, type TicketStatus } from './lifecycle.ts'
import { checkCustomFields, normalizeTags, recordTicketEvent, replaceTags } from './shared.ts'
import { tickets } from './table.ts'
import type { TicketRow } from './ticket-json.ts'
import { getVisibleTicket } from './visibility.ts'

export interface TicketChanges {
  subject?: string
  description?: string
  status?: TicketStatus
  priority?: TicketPriority
  type?: TicketRow['type']
  channel?: TicketRow['channel']
  requester?: { name: string; email: string } | null
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
}

type Field = 'subject' | 'description' | 'status' | 'priority' | 'type' | 'channel' | 'requester' | 'tags' | 'custom_fields'

/** Applies a status change's side columns (solved_at, closed_at). */
function statusColumns(from: TicketRow, to: TicketStatus, now: number): Pick<TicketRow, 'status' | 'solved_at' | 'closed_at'> {
  if (to === from.status) return { status: from.status, solved_at: from.solved_at, closed_at: from.closed_at }
  return { status: to, solved_at: to === 'solved' ? now : to === 'closed' ? from.solved_at : null, closed_at: to === 'closed' ? now : null }
}

function save(tx: Tx, actor: UserActor | null, before: TicketRow, after: TicketRow, changed: Field[], now: number): TicketRow {
  tx.update(tickets).set(after).where(eq(tickets.id, before.id)).run()
  if (changed.includes('tags')) replaceTags(tx, after, JSON.parse(after.tags) as string[])
  recordTicketEvent(tx, actor, 'ticket.updated', after, now, { changed })
  if (changed.includes('status') && after.status === 'solved') recordTicketEvent(tx, actor, 'ticket.resolved', after, now)
  return after
}

export function updateTicket(db: AppDatabase, actor: UserActor, id: string, changes: TicketChanges, now: number): TicketRow {
  const customFields = changes.custom_fields === undefined ? undefined : checkCustomFields(changes.custom_fields)
  return write(db, (tx) => {
    const before = getVisibleTicket(tx, actor, id)
    assertNotClosed(before.status)
    if (changes.status !== undefined && changes.status !== before.status) assertTransition(before.status, changes.status)
    const requester = changes.requester === undefined ? undefined : changes.requester === null ? { requester_name: null, requester_email: null } : { requester_name: changes.requester.name.trim(), requester_email: changes.requester.email.trim().toLowerCase() }
    const after: TicketRow = {
      ...before,
      ...(changes.subject !== undefined && { subject: changes.subject.trim() }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.priority !== undefined && { priority: priorityRank(changes.priority) }),
      ...(changes.type !== undefined && { type: changes.type }),
      ...(changes.channel !== undefined && { channel: changes.channel }),
      ...requester,
      ...(changes.tags !== undefined && { tags: JSON.stringify(normalizeTags(changes.tags)) }),
      ...(customFields !== undefined && { custom_fields: customFields }),
      ...statusColumns(before, changes.status ?? before.status, now),
    }
    const differs: Record<Field, boolean> = {
      subject: after.subject !== before.subject,
      description: after.description !== before.description,
      status: after.status !== before.status,
      priority: after.priority !== before.priority,
      type: after.type !== before.type,
      channel: after.channel !== before.channel,
      requester: after.requester_name !== before.requester_name || after.requester_email !== before.requester_email,
      tags: after.tags !== before.tags,
      custom_fields: after.custom_fields !== before.custom_fields,
    }
    const changed = (Object.keys(differs) as Field[]).filter((field) => differs[field])
    if (changed.length === 0) return before
    return save(tx, actor, before, { ...after, updated_at: now }, changed, now)
  })
}

/** For the cron loop: closes tickets solved at or before `solvedBefore`, at most `limit` of them. */
export function closeSolvedTickets(db: AppDatabase, solvedBefore: number, now: number, limit: number): number {
  return write(db, (tx) => {
    const due = tx.select().from(tickets).where(and(eq(tickets.status, 'solved'), lte(tickets.solved_at, solvedBefore))).orderBy(asc(tickets.solved_at)).limit(limit).all()
    for (const before of due) save(tx, null, before, { ...before, ...statusColumns(before, 'closed', now), updated_at: now }, ['status'], now)
    return due.length
  })
}
