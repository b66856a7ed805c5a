// deleteTicket: removes a ticket with its comments and tags (the audit entry keeps the fact).
import { eq } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import { actorOf, audit } from '../audit/record.ts'
import { tickets } from './table.ts'
import { getVisibleTicket } from './visibility.ts'

export function deleteTicket(db: AppDatabase, actor: UserActor, id: string, now: number): void {
  write(db, (tx) => {
    const ticket = getVisibleTicket(tx, actor, id)
    // Comments and tags go with it (ON DELETE CASCADE).
    tx.delete(tickets).where(eq(tickets.id, ticket.id)).run()
    audit(tx, { organizationId: ticket.organization_id, actor: actorOf(actor), event: 'ticket.deleted', target: { type: 'ticket', id: ticket.id }, request: actor.request, now })
  })
}
