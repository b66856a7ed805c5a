// deleteTicket: removes a ticket with its comments and tags (the audit record keeps the fact).
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deleteTicketRow } from './store.ts'
import { getVisibleTicket } from './visibility.ts'

export async function deleteTicket(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('ticket.delete', async (tx) => {
    const ticket = await getVisibleTicket(tx, actor, input.id)
    await deleteTicketRow(tx, ticket)
    await appendAudit(tx, {
      organizationId: ticket.organization_id,
      actor: auditActorOf(actor),
      event: 'ticket.deleted',
      target: { type: 'ticket', id: ticket.id },
      request: actor.request,
      now,
    })
  })
}
