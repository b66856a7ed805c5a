// Ticket comments: add one (ticket.comment.added, and the ticket's updated_at moves), with the uploads
// it names attached to it in the same transaction (the event carries them whole), list them paginated.
import type { Ctx, UserActor } from '../../context.ts'
import { type ListRequest, listBody } from '../../db/list.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import { attachUploadsInTx, uploadJson } from '../uploads/index.ts'
import { TICKET_UPLOAD_PURPOSES } from './create-ticket.ts'
import { assertNotClosed } from './lifecycle.ts'
import { recordTicketEvent } from './shared.ts'
import { COMMENT_LIST, type CommentRow, insertComment, touchTicket } from './store.ts'
import { getVisibleTicket } from './visibility.ts'

export function commentJson(row: CommentRow) {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    author_id: row.author_id,
    body: row.body,
    public: Boolean(row.public),
    upload_ids: JSON.parse(row.upload_ids) as string[],
    created_at: isoTime(row.created_at),
  }
}

export async function addComment(
  ctx: Ctx<UserActor>,
  input: { ticketId: string; body: string; public?: boolean; upload_ids?: string[] },
): Promise<CommentRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const id = prefixedId('tcm')
  const uploadIds = input.upload_ids ?? []
  return ctx.db.write('ticket.comment', async (tx) => {
    const ticket = await getVisibleTicket(tx, actor, input.ticketId)
    assertNotClosed(ticket.status, 'take a comment')
    const uploads = await attachUploadsInTx(tx, ctx, {
      organizationId: ticket.organization_id,
      uploadIds,
      target: { type: 'ticket_comment', id },
      purposes: TICKET_UPLOAD_PURPOSES,
      now,
    })
    const comment: CommentRow = {
      id,
      organization_id: ticket.organization_id,
      ticket_id: ticket.id,
      author_id: actor.userId,
      body: input.body,
      public: input.public ?? true,
      upload_ids: JSON.stringify(uploadIds),
      created_at: now,
    }
    await insertComment(tx, comment)
    await touchTicket(tx, ticket, now)
    await recordTicketEvent(tx, ctx, 'ticket.comment.added', { ...ticket, updated_at: now }, now, {
      comment: commentJson(comment),
      uploads: uploads.map(uploadJson),
    })
    return comment
  })
}

export async function listComments(ctx: Ctx<UserActor>, input: { ticketId: string; request: ListRequest }) {
  const ticket = await getVisibleTicket(ctx.db, ctx.actor, input.ticketId)
  const page = await COMMENT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    // The ticket is part of the query: a token of one ticket's comments is refused on another's.
    filters: { ticket_id: ticket.id },
    where: [{ sql: 'ticket_comments.ticket_id = ?', params: [ticket.id] }],
  })
  return listBody('comments', page, commentJson)
}
