// The HTTP layer of calls: routes under /api/v1/calls (create, list, read, link to a ticket or contact,
// and the lifecycle operations ring, answer, transfer and end). Agents see and handle only the calls
// assigned to them or to nobody (404 otherwise) and take calls only for themselves (403).
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { listRequest } from '../../../http/list.ts'
import { callJson } from './call-json.ts'
import { createCall } from './create-call.ts'
import { listCalls } from './list-calls.ts'
import {
  AnswerCallBody,
  CallBody,
  CallIdParams,
  CallList,
  CallListQuery,
  CreateCallBody,
  EndCallBody,
  RingCallBody,
  TransferCallBody,
  UpdateCallBody,
} from './model.ts'
import { answerCall, endCall, ringCall } from './operate-call.ts'
import { transferCall } from './transfer-call.ts'
import { updateCall } from './update-call.ts'
import { getVisibleCall } from './visibility.ts'

const tags = ['Calls']
const SCOPE =
  'Agents see and handle only the calls assigned to them or to nobody (others are 404), and take calls only for themselves (403).'
const LIFECYCLE =
  'Lifecycle: queued -> ringing -> in_progress -> completed; queued -> in_progress (answered from the queue); ringing -> no_answer, busy, failed, canceled, rejected; queued -> failed, canceled. Any other move is 409 INVALID_STATE_TRANSITION naming both states.'
const MOVE_ERRORS = protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION')

export function callsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/calls' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return callJson(await createCall(ctx, body))
      },
      {
        permission: 'call:create',
        body: CreateCallBody,
        response: { 201: CallBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createCall',
          summary: 'Create a call',
          description: `Queued (or ringing). Without contact_id, the contact is the organization's contact with the other party's number (from for inbound, to for outbound), if any. provider_call_id is unique per provider (409). Emits call.started. ${SCOPE}`,
        },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { page_size, page_token, sort, include_total, ...filters } = query
        return listCalls(ctx, { filters, request: listRequest({ page_size, page_token, sort, include_total }) })
      },
      {
        permission: 'call:read',
        query: CallListQuery,
        response: { 200: t.NoValidate(CallList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listCalls',
          summary: 'List calls',
          description: `Keyset-paginated; sorts created_at, initialized_at, updated_at; default created_at:desc. ${SCOPE}`,
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => callJson(await getVisibleCall(ctx.db, ctx.actor, params.id)), {
      permission: 'call:read',
      params: CallIdParams,
      response: { 200: CallBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getCall', summary: 'Get a call', description: SCOPE },
    })
    .patch('/:id', async ({ ctx, params, body }) => callJson(await updateCall(ctx, { id: params.id, changes: body })), {
      permission: 'call:update',
      params: CallIdParams,
      body: UpdateCallBody,
      response: { 200: CallBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags,
        operationId: 'updateCall',
        summary: "Set a call's ticket or contact",
        description: `During or after the call. Status, agent and queue change only through ring, answer, transfer and end. Audited as call.updated (no event). ${SCOPE}`,
      },
    })
    .post('/:id/ring', async ({ ctx, params, body }) => callJson(await ringCall(ctx, { id: params.id, agent_id: body.agent_id })), {
      permission: 'call:update',
      params: CallIdParams,
      body: RingCallBody,
      response: { 200: CallBody, ...MOVE_ERRORS },
      detail: { tags, operationId: 'ringCall', summary: 'A queued call rings (at an agent)', description: `${LIFECYCLE} ${SCOPE}` },
    })
    .post('/:id/answer', async ({ ctx, params, body }) => callJson(await answerCall(ctx, { id: params.id, agent_id: body.agent_id })), {
      permission: 'call:update',
      params: CallIdParams,
      body: AnswerCallBody,
      response: { 200: CallBody, ...MOVE_ERRORS },
      detail: {
        tags,
        operationId: 'answerCall',
        summary: 'Answer a call',
        description: `The call becomes in_progress: answered_at and wait_seconds are set; emits call.answered. The agent is agent_id, else the one the call rings at, else the caller. ${LIFECYCLE} ${SCOPE}`,
      },
    })
    .post('/:id/transfer', async ({ ctx, params, body }) => callJson(await transferCall(ctx, { id: params.id, to: body.to })), {
      permission: 'call:update',
      params: CallIdParams,
      body: TransferCallBody,
      response: { 200: CallBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'transferCall',
        summary: 'Transfer a call to another agent or a queue',
        description: `Only a call not yet ended (409 otherwise); its status stays. Emits call.transferred with from and to ({agent_id, queue} each). Transferring to whoever has it already is 409. ${SCOPE}`,
      },
    })
    .post(
      '/:id/end',
      async ({ ctx, params, body }) => callJson(await endCall(ctx, { id: params.id, status: body.status, end_reason: body.end_reason })),
      {
        permission: 'call:update',
        params: CallIdParams,
        body: EndCallBody,
        response: { 200: CallBody, ...MOVE_ERRORS },
        detail: {
          tags,
          operationId: 'endCall',
          summary: 'End a call',
          description: `The call takes a terminal status (default completed): ended_at, talk_seconds (0 if never answered) and end_reason (default the status) are set; emits call.completed with the status and the reason. ${LIFECYCLE} ${SCOPE}`,
        },
      },
    )
}
