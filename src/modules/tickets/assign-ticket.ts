// assignTicket: gives a ticket to an active user of the organization, or to nobody (null);
// ticket.assigned records the previous assignee.
import type { Ctx, UserActor } from '../../context.ts'
import { assertNotClosed } from './lifecycle.ts'
import { assertAssignable, recordTicketEvent } from './shared.ts'
import { saveTicket, type TicketRow } from './store.ts'
import { getVisibleTicket } from './visibility.ts'

export async function assignTicket(ctx: Ctx<UserActor>, input: { id: string; assigneeId: string | null }): Promise<TicketRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  return ctx.db.write('ticket.assign', async (tx) => {
    const before = await getVisibleTicket(tx, actor, input.id)
    assertNotClosed(before.status, 'be assigned')
    if (input.assigneeId !== null) await assertAssignable(tx, actor.organizationId, input.assigneeId)
    if (input.assigneeId === before.assignee_id) return before
    const after: TicketRow = { ...before, assignee_id: input.assigneeId, updated_at: now }
    await saveTicket(tx, after)
    await recordTicketEvent(tx, ctx, 'ticket.assigned', after, now, { previous_assignee_id: before.assignee_id })
    return after
  })
}
