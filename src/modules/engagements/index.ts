// The engagements module's public entry: engagement sessions (conversations with a contact
// on a channel), their messages, escalation and routing — routes under /api/v1/engagements (CRUD and
// messages in routes.ts; the operations assign, snooze, unsnooze, wrap-up, close, reopen and escalate
// here) — the cron tasks that wake snoozed sessions and close inactive ones, and the examples of its
// objects.
export { type EngagementJson, engagementJson, messageJson } from './engagement-json.ts'
export { ENGAGEMENT_EXAMPLE, MESSAGE_EXAMPLE } from './model.ts'
export { engagementContactReferrer, engagementTicketReferrer } from './references.ts'
export { getVisibleEngagement } from './visibility.ts'

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { validationError } from '../../errors.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { assignEngagement } from './assign.ts'
import { engagementJson } from './engagement-json.ts'
import { escalateEngagement } from './escalate.ts'
import { engagementTasks } from './jobs.ts'
import { AssignBody, CloseBody, EngagementBody, EngagementIdParams, EscalateBody, LIFECYCLE, SCOPE, SnoozeBody } from './model.ts'
import { closeEngagement, reopenEngagement, snoozeEngagement, unsnoozeEngagement, wrapUpEngagement } from './move-engagement.ts'
import { engagementRoutes } from './routes.ts'

const tags = ['Engagements']
const MOVE_ERRORS = protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION')

export function engagementsRoutes(app: AppContext) {
  return new Elysia().use(engagementRoutes(app)).use(operationRoutes(app))
}

/** This module's cron tasks. */
export function engagementsTasks(app: AppContext): TaskDefinition[] {
  return engagementTasks(app)
}

function timeOf(field: string, text: string): number {
  const ms = parseDateTime(text)
  if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
  return ms
}

function operationRoutes(app: AppContext) {
  const move = { permission: 'engagement:update' as const, params: EngagementIdParams, response: { 200: EngagementBody, ...MOVE_ERRORS } }
  return new Elysia({ prefix: '/api/v1/engagements' })
    .use(authMacros(app))
    .post(
      '/:id/assign',
      async ({ ctx, params, body }) => engagementJson(await assignEngagement(ctx, { id: params.id, assignee_id: body.assignee_id })),
      {
        ...move,
        body: AssignBody,
        response: { 200: EngagementBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'assignEngagement',
          summary: 'Assign an engagement session',
          description: `To a user, or "auto": among the organization's agents logged in, in an available activity, under capacity (max_concurrent) and with the session's required_skill, the lowest load first (ties by id); 409 CONFLICT when none is. A queued session becomes active; active and wrap-up sessions count in the agent's load. A closed session cannot be assigned (409). ${SCOPE}`,
        },
      },
    )
    .post(
      '/:id/snooze',
      async ({ ctx, params, body }) => engagementJson(await snoozeEngagement(ctx, { id: params.id, until: timeOf('until', body.until) })),
      {
        ...move,
        body: SnoozeBody,
        detail: {
          tags,
          operationId: 'snoozeEngagement',
          summary: 'Snooze an engagement session',
          description: `active -> snoozed until \`until\` (in the future). ${LIFECYCLE} ${SCOPE}`,
        },
      },
    )
    .post('/:id/unsnooze', async ({ ctx, params }) => engagementJson(await unsnoozeEngagement(ctx, { id: params.id })), {
      ...move,
      detail: {
        tags,
        operationId: 'unsnoozeEngagement',
        summary: 'Wake a snoozed session',
        description: `snoozed -> active. ${LIFECYCLE} ${SCOPE}`,
      },
    })
    .post('/:id/wrap-up', async ({ ctx, params }) => engagementJson(await wrapUpEngagement(ctx, { id: params.id })), {
      ...move,
      detail: {
        tags,
        operationId: 'wrapUpEngagement',
        summary: 'Start the wrap-up of a session',
        description: `active -> wrap_up. ${LIFECYCLE} ${SCOPE}`,
      },
    })
    .post(
      '/:id/close',
      async ({ ctx, params, body }) => engagementJson(await closeEngagement(ctx, { id: params.id, reason: body.reason })),
      {
        ...move,
        permission: 'engagement:close',
        body: CloseBody,
        detail: {
          tags,
          operationId: 'closeEngagement',
          summary: 'Close an engagement session',
          description: `-> closed: closed_at, close_reason (agent, or customer), waiting_since cleared. Emits engagement.closed. ${LIFECYCLE} ${SCOPE}`,
        },
      },
    )
    .post('/:id/reopen', async ({ ctx, params }) => engagementJson(await reopenEngagement(ctx, { id: params.id })), {
      ...move,
      detail: {
        tags,
        operationId: 'reopenEngagement',
        summary: 'Reopen an engagement session',
        description: `closed -> active (queued without an assignee); wrap_up -> active. ${LIFECYCLE} ${SCOPE}`,
      },
    })
    .post(
      '/:id/escalate',
      async ({ ctx, params, body }) => engagementJson(await escalateEngagement(ctx, { id: params.id, escalation: body })),
      {
        ...move,
        permission: 'engagement:escalate',
        body: EscalateBody,
        detail: {
          tags,
          operationId: 'escalateEngagement',
          summary: 'Escalate an engagement session',
          description: `Sets escalated_at, escalation_level, escalated_to and escalation_reason (a field, not a state); to an agent the session is handed to it (queued -> active), to a team its team changes; ticket_id links a ticket of the organization. A closed session is 409. Emits engagement.escalated with escalation {level, to, reason}. ${SCOPE}`,
        },
      },
    )
}
