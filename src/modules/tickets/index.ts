// The tickets module's public entry: routes under /api/v1/tickets (create, list, read, update, delete,
// assign, comments; agents see only their own and unassigned tickets, others are 404 to them), a
// contact's tickets (GET /api/v1/contacts/{id}/tickets: here, as the tickets module depends on the CRM
// and not the reverse), and the auto-close verb the cron loop runs. Tickets and comments take upload_ids.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { requirePermission } from '../access/index.ts'
import { listRequest } from '../../http/list.ts'
import { assignTicket } from './assign-ticket.ts'
import { addComment, commentJson, listComments } from './comments.ts'
import { createTicket } from './create-ticket.ts'
import { deleteTicket } from './delete-ticket.ts'
import { listContactTickets, listTickets } from './list-tickets.ts'
import {
  AssignBody,
  CommentBody,
  CommentJson,
  CommentList,
  CommentListQuery,
  ContactTicketsQuery,
  CreateTicketBody,
  TicketBody,
  TicketIdParams,
  TicketList,
  TicketListQuery,
  UpdateTicketBody,
} from './model.ts'
import { ticketJson } from './ticket-json.ts'
import { updateTicket } from './update-ticket.ts'
import { getVisibleTicket } from './visibility.ts'

const tags = ['Tickets']
const UPLOADS =
  'upload_ids attaches files uploaded first (POST /api/v1/uploads, purpose attachment) in the same transaction: an id that is missing or of another organization is 404, an upload already attached or expired is 409, another purpose 400. The event carries the uploads whole (data.uploads).'

export { createTicketInTx, type NewTicket } from './create-ticket.ts'
export { ticketAutoCloseTask } from './jobs.ts'
export { COMMENT_EXAMPLE, TICKET_EXAMPLE } from './model.ts'
export { ticketContactReferrer } from './contact-referrer.ts'
export { ticketJson } from './ticket-json.ts'
export { getVisibleTicket } from './visibility.ts'

export function ticketsRoutes(app: AppContext) {
  return new Elysia().use(ticketRoutes(app)).use(contactTicketsRoute(app))
}

function contactTicketsRoute(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/contacts' }).use(authMacros(app)).get(
    '/:id/tickets',
    ({ ctx, params, query }) => {
      // A contact's tickets are both: contact:read by the route, ticket:read here.
      requirePermission(ctx.actor, 'ticket:read')
      return listContactTickets(ctx, { contactId: params.id, request: listRequest(query) })
    },
    {
      permission: 'contact:read',
      params: TicketIdParams,
      query: ContactTicketsQuery,
      response: { 200: t.NoValidate(TicketList), ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_PAGE_TOKEN') },
      detail: {
        tags: ['Contacts'],
        operationId: 'listContactTickets',
        summary: "List a contact's tickets",
        description:
          'As the tickets list: keyset-paginated, the same sorts, and agents see their own and unassigned tickets. Needs ticket:read too.',
      },
    },
  )
}

function ticketRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/tickets' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        if (typeof body.assignee_id === 'string') requirePermission(ctx.actor, 'ticket:assign')
        set.status = 201
        return ticketJson(await createTicket(ctx, body))
      },
      {
        permission: 'ticket:create',
        body: CreateTicketBody,
        response: { 201: TicketBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: { tags, operationId: 'createTicket', summary: 'Create a ticket', description: UPLOADS },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { status, priority, assignee_id, contact_id, tag, created_after, created_before } = query
        return listTickets(ctx, {
          filters: { status, priority, assignee_id, contact_id, tag, created_after, created_before },
          request: listRequest(query),
        })
      },
      {
        permission: 'ticket:read',
        query: TicketListQuery,
        response: { 200: t.NoValidate(TicketList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listTickets',
          summary: 'List tickets',
          description:
            'Keyset-paginated; sorts created_at, updated_at, priority, number; default created_at:desc. Agents see their own and unassigned tickets.',
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => ticketJson(await getVisibleTicket(ctx.db, ctx.actor, params.id)), {
      permission: 'ticket:read',
      params: TicketIdParams,
      response: { 200: TicketBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getTicket', summary: 'Get a ticket' },
    })
    .patch('/:id', async ({ ctx, params, body }) => ticketJson(await updateTicket(ctx, { id: params.id, changes: body })), {
      permission: 'ticket:update',
      params: TicketIdParams,
      body: UpdateTicketBody,
      response: { 200: TicketBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'updateTicket',
        summary: 'Change a ticket',
        description:
          'Status follows the lifecycle: new/open/pending/on_hold move among themselves and to solved; solved reopens to open or closes; closed is final (409).',
      },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteTicket(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'ticket:delete',
        params: TicketIdParams,
        response: {
          204: t.Void({ description: 'Deleted, with its comments; the calls and sessions linked to it stay, without it' }),
          ...protectedErrors('NOT_FOUND', 'CONFLICT'),
        },
        detail: {
          tags,
          operationId: 'deleteTicket',
          summary: 'Delete a ticket',
          description:
            'Its comments, tags and attached files go with it; calls and engagement sessions linked to it stay without it (each audited as call.updated / engagement.updated); survey responses that rated it stay, naming it. 409 CONFLICT if a record still refers to it.',
        },
      },
    )
    .post(
      '/:id/assign',
      async ({ ctx, params, body }) => ticketJson(await assignTicket(ctx, { id: params.id, assigneeId: body.assignee_id })),
      {
        permission: 'ticket:assign',
        params: TicketIdParams,
        body: AssignBody,
        response: { 200: TicketBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'assignTicket',
          summary: 'Assign a ticket',
          description: 'To an active user of the organization, or to nobody with null.',
        },
      },
    )
    .post(
      '/:id/comments',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return commentJson(await addComment(ctx, { ticketId: params.id, ...body }))
      },
      {
        permission: 'ticket:comment',
        params: TicketIdParams,
        body: CommentBody,
        response: { 201: CommentJson, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: { tags, operationId: 'addTicketComment', summary: 'Comment on a ticket', description: UPLOADS },
      },
    )
    .get('/:id/comments', ({ ctx, params, query }) => listComments(ctx, { ticketId: params.id, request: listRequest(query) }), {
      permission: 'ticket:read',
      params: TicketIdParams,
      query: CommentListQuery,
      response: { 200: CommentList, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_PAGE_TOKEN') },
      detail: { tags, operationId: 'listTicketComments', summary: "List a ticket's comments" },
    })
}
