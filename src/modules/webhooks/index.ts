// The webhooks module's public entry: routes under /api/v1/webhooks (register, list, read, change and
// delete; delivery records; a test send, a manual retry and the recovery of what was not delivered),
// and what the composition root wires: the fan-out subscriber, the wake-ups, the dispatcher, cron tasks.
// The re-exports come first (see access/index.ts).
export { changeAllowedCidrs, MAX_ALLOWED_CIDRS, parseAllowedCidrs, readAllowedCidrs } from './allowed-cidrs.ts'
export { WebhookDispatcher, type DispatcherDeps, type DispatcherOptions } from './dispatcher.ts'
export { fanOutSubscriber } from './fan-out.ts'
export { webhookDispatchTask, webhookPruneTask } from './jobs.ts'
export { InProcessWakeups, RedisWakeups, redisWakeups } from './signal.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createWebhook } from './create-webhook.ts'
import { deleteWebhook } from './delete-webhook.ts'
import { deliveryJson } from './delivery-json.ts'
import { getWebhook } from './get-webhook.ts'
import { listDeliveries } from './list-deliveries.ts'
import { listWebhooks } from './list-webhooks.ts'
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

export function webhooksRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/webhooks' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return webhookJson(await createWebhook(ctx, body))
      },
      {
        permission: 'webhook:create',
        body: CreateWebhookBody,
        response: { 201: WebhookBody, ...protectedErrors('VALIDATION_FAILED', 'LIMIT_REACHED') },
        detail: {
          tags,
          operationId: 'createWebhook',
          summary: 'Register a webhook',
          description: 'Deliveries of the subscribed events start with the next event. The secret is never returned.',
        },
      },
    )
    .get('', ({ ctx, query }) => listWebhooks(ctx, { request: listRequest(query) }), {
      permission: 'webhook:read',
      query: WebhookListQuery,
      response: { 200: WebhookList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: { tags, operationId: 'listWebhooks', summary: 'List webhooks', description: 'Newest first.' },
    })
    .get('/:id', async ({ ctx, params }) => webhookJson(await getWebhook(ctx, { id: params.id })), {
      permission: 'webhook:read',
      params: WebhookIdParams,
      response: { 200: WebhookBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getWebhook', summary: 'Read a webhook', description: 'With its failure state.' },
    })
    .patch('/:id', async ({ ctx, params, body }) => webhookJson(await updateWebhook(ctx, { id: params.id, changes: body })), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: UpdateWebhookBody,
      response: { 200: WebhookBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change a webhook',
        description: '`enabled: true` turns a disabled webhook back on and clears its failure state.',
      },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteWebhook(ctx, { id: params.id })
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
      ({ ctx, params, query }) =>
        listDeliveries(ctx, {
          webhookId: params.id,
          filters: { status: query.status, event_id: query.event_id },
          request: listRequest(query),
        }),
      {
        permission: 'webhook:read',
        params: WebhookIdParams,
        query: DeliveryListQuery,
        response: { 200: DeliveryList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'NOT_FOUND') },
        detail: {
          tags,
          operationId: 'listWebhookDeliveries',
          summary: 'List delivery attempts',
          description: 'One record per attempt, newest first; filters status and event_id.',
        },
      },
    )
    .post(
      '/:id/test',
      async ({ ctx, params, body }) => deliveryJson(await sendTestEvent(ctx, { webhookId: params.id, eventType: body.event_type })),
      {
        permission: 'webhook:update',
        params: WebhookIdParams,
        body: TestWebhookBody,
        response: { 200: DeliveryBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags,
          operationId: 'sendTestEvent',
          summary: 'Send a test event',
          description:
            'An event of the given type carrying the example data this document shows for that type (its `webhooks` entry), marked `data.test: true`, to this webhook whatever its events filter, through the real pipeline; answers with the delivery record. Never counts toward disabling.',
        },
      },
    )
    .post(
      '/:id/deliveries/:delivery_id/retry',
      async ({ ctx, params }) => deliveryJson(await retryDelivery(ctx, { webhookId: params.id, deliveryId: params.delivery_id })),
      {
        permission: 'webhook:update',
        params: DeliveryParams,
        response: { 200: DeliveryBody, ...protectedErrors('NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'retryWebhookDelivery',
          summary: 'Send a delivery again now',
          description: 'One more attempt of the same event, answered with its record; not retried further if it fails.',
        },
      },
    )
    .post('/:id/recover', ({ ctx, params, body }) => recoverWebhook(ctx, { webhookId: params.id, since: body.since }), {
      permission: 'webhook:update',
      params: WebhookIdParams,
      body: RecoverBody,
      response: { 200: RecoverResult, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
      detail: {
        tags,
        operationId: 'recoverWebhookDeliveries',
        summary: 'Send again what was not delivered',
        description:
          'Queues every event since `since` (at most 14 days back) that matched this webhook and was not delivered: failed for good, or skipped while it was disabled.',
      },
    })
}
