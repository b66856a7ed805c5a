// assignTicket: gives a ticket to an active user of the organization, or to nobody (null);
// ticket.assigned records the previous assignee.
import { eq } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import { assertNotClosed } from './lifecycle.ts'
import { assertAssignable, recordTicketEvent } from './shared.ts'
import { tickets } from './table.ts'
import type { TicketRow } from './ticket-json.ts'
import { getVisibleTicket } from './visibility.ts'

export function assignTicket(db: AppDatabase, actor: UserActor, id: string, assigneeId: string | null, now: number): TicketRow {
  return write(db, (tx) => {
    const before = getVisibleTicket(tx, actor, id)
    assertNotClosed(before.status)
    if (assigneeId !== null) assertAssignable(tx, actor.organizationId, assigneeId)
    if (assigneeId === before.assignee_id) return before
    const after: TicketRow = { ...before, assignee_id: assigneeId, updated_at: now }
    tx.update(tickets).set({ assignee_id: assigneeId, updated_at: now }).where(eq(tickets.id, id)).run()
    recordTicketEvent(tx, actor, 'ticket.assigned', after, now, { previous_assignee_id: before.assignee_id })
    return after
  })
}
