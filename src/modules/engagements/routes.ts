// The HTTP layer of engagement sessions: routes under /api/v1/engagements (create, list, read, PATCH,
// and the session's messages; the operations are in index.ts). Agents see and work only the
// sessions assigned to them and the queued unassigned ones (404 otherwise) and take sessions only for
// themselves or "auto" (403).
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createEngagement } from './create-engagement.ts'
import { engagementJson, messageJson } from './engagement-json.ts'
import { listEngagements } from './list-engagements.ts'
import { addMessage, listMessages } from './messages.ts'
import {
  CreateEngagementBody,
  CreateMessageBody,
  EngagementBody,
  EngagementIdParams,
  EngagementList,
  EngagementListQuery,
  MessageBody,
  MessageList,
  MessageListQuery,
  SCOPE,
  UpdateEngagementBody,
} from './model.ts'
import { updateEngagement } from './update-engagement.ts'
import { getVisibleEngagement } from './visibility.ts'

const tags = ['Engagements']
const MOVE_ERRORS = protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION')

export function engagementRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/engagements' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return engagementJson(await createEngagement(ctx, body))
      },
      {
        permission: 'engagement:create',
        body: CreateEngagementBody,
        response: { 201: EngagementBody, ...protectedErrors('VALIDATION_FAILED') },
        detail: {
          tags,
          operationId: 'createEngagement',
          summary: 'Create an engagement session',
          description: `Queued until assigned; with assignee_id (or assign: "auto": the available agent with the lowest load and required_skill; queued still when none is) it starts active. contact_id, ticket_id, call_id and assignee_id must be of the organization (400). Emits engagement.created. ${SCOPE}`,
        },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { page_size, page_token, sort, include_total, ...filters } = query
        return listEngagements(ctx, { filters, request: listRequest({ page_size, page_token, sort, include_total }) })
      },
      {
        permission: 'engagement:read',
        query: EngagementListQuery,
        response: { 200: t.NoValidate(EngagementList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listEngagements',
          summary: 'List engagement sessions',
          description: `Keyset-paginated by created_at (default desc). ${SCOPE}`,
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => engagementJson(await getVisibleEngagement(ctx.db, ctx.actor, params.id)), {
      permission: 'engagement:read',
      params: EngagementIdParams,
      response: { 200: EngagementBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getEngagement', summary: 'Get an engagement session', description: SCOPE },
    })
    .patch('/:id', async ({ ctx, params, body }) => engagementJson(await updateEngagement(ctx, { id: params.id, changes: body })), {
      permission: 'engagement:update',
      params: EngagementIdParams,
      body: UpdateEngagementBody,
      response: { 200: EngagementBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags,
        operationId: 'updateEngagement',
        summary: 'Change an engagement session',
        description: `Team, required skill, priority, subject, labels, custom fields, ticket and call. Status and assignee change through the operations and assign. Audited (no event). ${SCOPE}`,
      },
    })
    .post(
      '/:id/messages',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return messageJson(await addMessage(ctx, { id: params.id, message: body }))
      },
      {
        permission: 'message:create',
        params: EngagementIdParams,
        body: CreateMessageBody,
        response: { 201: MessageBody, ...MOVE_ERRORS },
        detail: {
          tags,
          operationId: 'createEngagementMessage',
          summary: 'Add a message to a session',
          description: `out: the caller is its author (not on a closed session: 409). in: the session's contact is its author; it wakes a snoozed session, brings a wrap-up back to active, reopens a closed one within ENGAGEMENT_REOPEN_HOURS of its closing, else opens a new queued session for the same contact and channel (engagement.created) and the message goes there: engagement_id says which. The first unanswered inbound sets waiting_since; the first outbound sets first_reply_at; an outbound clears waiting_since; every message sets last_activity_at. upload_ids attaches pending attachment uploads (404 unknown, 409 attached or expired, 400 another purpose). No event of its own. ${SCOPE}`,
        },
      },
    )
    .get(
      '/:id/messages',
      ({ ctx, params, query }) =>
        listMessages(ctx, { id: params.id, request: listRequest({ ...query, sort: query.sort ?? 'created_at:asc' }) }),
      {
        permission: 'message:read',
        params: EngagementIdParams,
        query: MessageListQuery,
        response: { 200: t.NoValidate(MessageList), ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listEngagementMessages',
          summary: "List a session's messages",
          description: `Keyset-paginated by created_at, oldest first by default. ${SCOPE}`,
        },
      },
    )
}
