// Ticket comments: add one (ticket.comment.added, and the ticket's updated_at moves), list them paginated.
import type { Database } from 'bun:sqlite'
import { eq } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import type { PageTokens } from '../../db/page-tokens.ts'
import { write } from '../../db/tx.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import { assertNotClosed } from './lifecycle.ts'
import { recordTicketEvent } from './shared.ts'
import { ticketComments, tickets } from './table.ts'
import { getVisibleTicket } from './visibility.ts'

type CommentRow = typeof ticketComments.$inferSelect

export const COMMENT_SORTS = ['created_at'] as const

export function commentJson(row: CommentRow) {
  return { id: row.id, ticket_id: row.ticket_id, author_id: row.author_id, body: row.body, public: Boolean(row.public), created_at: isoTime(row.created_at) }
}

export function addComment(db: AppDatabase, actor: UserActor, ticketId: string, input: { body: string; public?: boolean }, now: number) {
  return write(db, (tx) => {
    const ticket = getVisibleTicket(tx, actor, ticketId)
    assertNotClosed(ticket.status)
    const comment: CommentRow = { id: prefixedId('tcm'), organization_id: ticket.organization_id, ticket_id: ticket.id, author_id: actor.userId, body: input.body, public: input.public ?? true, created_at: now }
    tx.insert(ticketComments).values(comment).run()
    tx.update(tickets).set({ updated_at: now }).where(eq(tickets.id, ticket.id)).run()
    recordTicketEvent(tx, actor, 'ticket.comment.added', { ...ticket, updated_at: now }, now, { comment: commentJson(comment) })
    return comment
  })
}

const LIST: ListDefinition<CommentRow> = {
  resource: 'ticket_comments',
  columns: 'id, organization_id, ticket_id, author_id, body, public, created_at',
  from: 'ticket_comments',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export function listComments(deps: { db: AppDatabase; sqlite: Database; pageTokens: PageTokens }, actor: UserActor, ticketId: string, request: ListRequest) {
  const ticket = getVisibleTicket(deps.db, actor, ticketId)
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, {
    organizationId: actor.organizationId,
    // The ticket is part of the query: a token of one ticket's comments is refused on another's.
    filters: { ticket_id: ticket.id },
    where: [{ sql: 'ticket_id = ?', params: [ticket.id] }],
  })
  return listBody('comments', page, commentJson)
}
