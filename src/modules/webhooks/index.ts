// Routes of webhooks under /api/v1/webhooks: register, list, read, change and delete.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createWebhook } from './create-webhook.ts'
import { deleteWebhook } from './delete-webhook.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { listWebhooks } from './list-webhooks.ts'
import { CreateWebhookBody, UpdateWebhookBody, WebhookBody, WebhookIdParams, WebhookList, WebhookListQuery } from './model.ts'
import { updateWebhook } from './update-webhook.ts'
import { webhookJson } from './webhook-json.ts'

const tags = ['Webhooks']

export function webhooksRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1/webhooks' })
    .use(authMacros(deps))
    .post(
      '',
      ({ actor, body, set }) => {
        set.status = 201
        return createWebhook(deps, actor, body)
      },
      {
        permission: 'webhook:create',
        body: CreateWebhookBody,
        response: { 201: WebhookBody, ...protectedErrors('VALIDATION_FAILED', 'LIMIT_REACHED') },
        detail: { tags, summary: 'Register a webhook', description: 'Deliveries of the subscribed events start with the next event. The secret is never returned.' },
      },
    )
    .get('', ({ actor, query }) => listWebhooks(deps, actor, listRequest(query)), {
      permission: 'webhook:read',
      query: WebhookListQuery,
      response: { 200: WebhookList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: { tags, summary: 'List webhooks', description: 'Newest first.' },
    })
    .get('/:id', ({ actor, params }) => webhookJson(getWebhookInOrg(deps.db, actor.organizationId, params.id)), {
      permission: 'webhook:read',
      params: WebhookIdParams,
      response: { 200: WebhookBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, summary: 'Read a webhook', description: 'With its failure state.' },
    })
    .patch('/:id', ({ actor, params, body }) => updateWebhook(deps, actor, params.id, body), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: UpdateWebhookBody,
      response: { 200: WebhookBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: { tags, summary: 'Change a webhook', description: '`enabled: true` turns a disabled webhook back on and clears its failure state.' },
    })
    .delete(
      '/:id',
      ({ actor, params, set }) => {
        deleteWebhook(deps, actor, params.id)
        set.status = 204
      },
      {
        permission: 'webhook:delete',
        params: WebhookIdParams,
        response: { 204: t.Void({ description: 'Deleted, with its delivery records' }), ...protectedErrors('NOT_FOUND') },
        detail: { tags, summary: 'Delete a webhook' },
      },
    )
}
