// Which tickets an actor sees: the whole organization, or for an agent only its own and the unassigned
// ones. A ticket outside that is answered exactly like one that does not exist.
import type { UserActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import type { Condition } from '../../db/list.ts'
import { AppError } from '../../errors.ts'
import { SCOPES } from '../access/index.ts'
import { findTicket, type TicketRow } from './store.ts'

export function seesOnlyOwnTickets(actor: UserActor): boolean {
  return SCOPES[actor.role]?.ticket === 'assigned_or_unassigned'
}

/** The actor's visibility as list conditions (the list adds the organization itself). */
export function ticketScope(actor: UserActor): Condition[] {
  return seesOnlyOwnTickets(actor) ? [{ sql: '(tickets.assignee_id = ? OR tickets.assignee_id IS NULL)', params: [actor.userId] }] : []
}

/** The ticket if the actor may see it; 404 otherwise. `db` is the transaction when the verb writes. */
export async function getVisibleTicket(db: Queries, actor: UserActor, id: string): Promise<TicketRow> {
  const ticket = await findTicket(db, actor.organizationId, id)
  if (!ticket || (seesOnlyOwnTickets(actor) && ticket.assignee_id !== null && ticket.assignee_id !== actor.userId)) {
    throw new AppError('NOT_FOUND', 'No such ticket')
  }
  return ticket
}
