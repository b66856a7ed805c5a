// The HTTP layer of the activities: /api/v1/agent-activities (list, create, delete). Everyone who reads
// agents reads them; admins (agent:create, agent:delete) create and delete custom ones.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { createActivity, deleteActivity, listActivities } from './manage-activities.ts'
import { ActivityBody, ActivityKeyParams, ActivityList, CreateActivityBody } from './model.ts'

const tags = ['Agents']

export function activityRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/agent-activities' })
    .use(authMacros(app))
    .get('', async ({ ctx }) => ({ activities: await listActivities(ctx) }), {
      permission: 'agent:read',
      response: { 200: ActivityList, ...protectedErrors() },
      detail: {
        tags,
        operationId: 'listAgentActivities',
        summary: 'List the activities',
        description: 'The built-in ones (offline, available, busy, break, wrap_up) first, then the organization’s own.',
      },
    })
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return createActivity(ctx, body)
      },
      {
        permission: 'agent:create',
        body: CreateActivityBody,
        response: { 201: ActivityBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createAgentActivity',
          summary: 'Create an activity',
          description: 'Its key is unique in the organization and may not be a built-in one (409); its available flag never changes.',
        },
      },
    )
    .delete(
      '/:key',
      async ({ ctx, params, set }) => {
        await deleteActivity(ctx, { key: params.key })
        set.status = 204
      },
      {
        permission: 'agent:delete',
        params: ActivityKeyParams,
        response: { 204: t.Void({ description: 'Deleted' }), ...protectedErrors('NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'deleteAgentActivity',
          summary: 'Delete an activity',
          description: 'Only a custom one no agent is in (409 otherwise, and for a built-in one).',
        },
      },
    )
}
