// Routes of webhooks under /api/v1/webhooks: register, list, read, change and delete; delivery records;
// a test send, a manual retry and the recovery of what was not delivered.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createWebhook } from './create-webhook.ts'
import { deleteWebhook } from './delete-webhook.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { listWebhooks } from './list-webhooks.ts'
import { listDeliveries } from './list-deliveries.ts'
import {
  CreateWebhookBody,
  DeliveryBody,
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  RecoverBody,
  RecoverResult,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookBody,
  WebhookIdParams,
  WebhookList,
  WebhookListQuery,
} from './model.ts'
import { recoverWebhook } from './recover.ts'
import { retryDelivery } from './retry-delivery.ts'
import { sendTestEvent } from './send-test.ts'
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
        detail: { tags, operationId: 'createWebhook', summary: 'Register a webhook', description: 'Deliveries of the subscribed events start with the next event. The secret is never returned.' },
      },
    )
    .get('', ({ actor, query }) => listWebhooks(deps, actor, listRequest(query)), {
      permission: 'webhook:read',
      query: WebhookListQuery,
      response: { 200: WebhookList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: { tags, operationId: 'listWebhooks', summary: 'List webhooks', description: 'Newest first.' },
    })
    .get('/:id', ({ actor, params }) => webhookJson(getWebhookInOrg(deps.db, actor.organizationId, params.id)), {
      permission: 'webhook:read',
      params: WebhookIdParams,
      response: { 200: WebhookBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getWebhook', summary: 'Read a webhook', description: 'With its failure state.' },
    })
    .patch('/:id', ({ actor, params, body }) => updateWebhook(deps, actor, params.id, body), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: UpdateWebhookBody,
      response: { 200: WebhookBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: { tags, operationId: 'updateWebhook', summary: 'Change a webhook', description: '`enabled: true` turns a disabled webhook back on and clears its failure state.' },
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
        detail: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook' },
      },
    )
    .get(
      '/:id/deliveries',
      ({ actor, params, query }) => listDeliveries(deps, actor, params.id, { status: query.status, event_id: query.event_id }, listRequest(query)),
      {
        permission: 'webhook:read',
        params: WebhookIdParams,
        query: DeliveryListQuery,
        response: { 200: DeliveryList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'NOT_FOUND') },
        detail: { tags, operationId: 'listWebhookDeliveries', summary: 'List delivery attempts', description: 'One record per attempt, newest first; filters status and event_id.' },
      },
    )
    .post('/:id/test', ({ actor, params, body }) => sendTestEvent(deps, actor, params.id, body.event_type), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: TestWebhookBody,
      response: { 200: DeliveryBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags,
        operationId: 'sendTestEvent', summary: 'Send a test event',
        description: 'An event of the given type with sample data (`data.test: true`), to this webhook whatever its events filter, through the real pipeline; answers with the delivery record. Never counts toward disabling.',
      },
    })
    .post('/:id/deliveries/:delivery_id/retry', ({ actor, params }) => retryDelivery(deps, actor, params.id, params.delivery_id), {
      permission: 'webhook:update',
      params: DeliveryParams,
      response: { 200: DeliveryBody, ...protectedErrors('NOT_FOUND', 'CONFLICT') },
      detail: { tags, operationId: 'retryWebhookDelivery', summary: 'Send a delivery again now', description: 'One more attempt of the same event, answered with its record; not retried further if it fails.' },
    })
    .post('/:id/recover', ({ actor, params, body }) => recoverWebhook(deps, actor, params.id, body.since), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: RecoverBody,
      response: { 200: RecoverResult, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
      detail: {
        tags,
        operationId: 'recoverWebhookDeliveries', summary: 'Send again what was not delivered',
        description: 'Queues every event since `since` (at most 14 days back) that matched this webhook and was not delivered: failed for good, or skipped while it was disabled.',
      },
    })
}
