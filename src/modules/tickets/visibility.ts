// Which tickets an actor sees: the whole organization, or for an agent only its own and the unassigned
// ones. A ticket outside that is answered exactly like one that does not exist.
import type { SQLQueryBindings } from 'bun:sqlite'
import { and, eq, sql } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { Condition } from '../../db/keyset.ts'
import { prepared } from '../../db/prepared.ts'
import type { Db } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { SCOPES } from '../access/permissions.ts'
import { tickets } from './table.ts'
import type { TicketRow } from './ticket-json.ts'

export function seesOnlyOwnTickets(actor: UserActor): boolean {
  return SCOPES[actor.role]?.ticket === 'assigned_or_unassigned'
}

/** The organization scope and the actor's visibility, as SQL conditions for raw queries. */
export function ticketScope(actor: UserActor): Condition[] {
  const scope: Condition[] = [{ sql: 'organization_id = ?', params: [actor.organizationId] }]
  if (seesOnlyOwnTickets(actor)) scope.push({ sql: '(assignee_id = ? OR assignee_id IS NULL)', params: [actor.userId] as SQLQueryBindings[] })
  return scope
}

/** The ticket if the actor may see it; 404 otherwise. */
export function getVisibleTicket(db: Db, actor: UserActor, id: string): TicketRow {
  const statement = prepared(db, 'ticket-in-org', (d) =>
    d.select().from(tickets).where(and(eq(tickets.id, sql.placeholder('id')), eq(tickets.organization_id, sql.placeholder('org')))).prepare(),
  )
  const ticket = statement.get({ id, org: actor.organizationId })
  if (!ticket || (seesOnlyOwnTickets(actor) && ticket.assignee_id !== null && ticket.assignee_id !== actor.userId)) {
    throw new AppError('NOT_FOUND', 'No such ticket')
  }
  return ticket
}
