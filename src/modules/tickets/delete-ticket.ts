// deleteTicket: removes a ticket with its comments and tags (the audit record keeps the fact); the files
// attached to it and its comments are deleted with it, and the calls and sessions linked to it let go of
// it (src/references.ts: each audited as its own module records that change).
import type { Ctx, UserActor } from '../../context.ts'
import { deleteUnlessReferenced } from '../../db/foreign-keys.ts'
import { releaseReferences } from '../../references.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deleteAttachedUploadsInTx } from '../uploads/index.ts'
import { refreshAssigneeLoad } from './shared.ts'
import { commentIdsOf, deleteTicketRow } from './store.ts'
import { getVisibleTicket } from './visibility.ts'

export async function deleteTicket(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('ticket.delete', async (tx) => {
    const ticket = await getVisibleTicket(tx, actor, input.id)
    // Marked deleted now (no longer downloadable); the cron loop removes their bytes.
    const attached = { organizationId: ticket.organization_id, now, deletedBy: actor.userId }
    await deleteAttachedUploadsInTx(tx, { ...attached, type: 'ticket_comment', ids: await commentIdsOf(tx, ticket) })
    await deleteAttachedUploadsInTx(tx, { ...attached, type: 'ticket', ids: [ticket.id] })
    const change = { organizationId: ticket.organization_id, from: ticket.id, now, cause: 'ticket.deleted' } as const
    await releaseReferences(tx, ctx, ctx.referrers.ticket, 'ticket', change)
    await deleteUnlessReferenced('ticket', () => deleteTicketRow(tx, ticket))
    // Its assignee carries one ticket less.
    await refreshAssigneeLoad(tx, ctx, ticket, now)
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
