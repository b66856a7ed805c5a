// Request and response schemas of the webhook endpoints.
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { MAX_FILTERS } from './filters.ts'
import { MAX_URL_LENGTH } from './url.ts'

const url = t.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'https URL of the receiver; not a private, loopback or link-local address',
})
const events = t.Array(t.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: MAX_FILTERS,
  description: 'Event type names, `*` for all, or a group prefix such as `ticket.*`',
})
const secret = t.String({ minLength: 16, maxLength: 256, description: 'Signs every delivery (HMAC-SHA256); never returned' })
const description = t.String({ maxLength: 500 })

export const CreateWebhookBody = t.Object(
  { url, events, secret, description: t.Optional(description) },
  {
    examples: [
      {
        url: 'https://hooks.example.com/switchboard',
        events: ['ticket.*', 'user.created'],
        secret: 'a-long-random-secret-of-yours',
        description: 'Helpdesk sync',
      },
    ],
  },
)

export const UpdateWebhookBody = t.Object(
  {
    url: t.Optional(url),
    events: t.Optional(events),
    secret: t.Optional(secret),
    description: t.Optional(t.Union([description, t.Null()])),
    enabled: t.Optional(t.Boolean({ description: 'true turns a disabled webhook back on and clears its failure state' })),
  },
  { minProperties: 1, examples: [{ enabled: true }] },
)

export const WebhookBody = t.Object(
  {
    id: t.String({ examples: ['whk_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    url: t.String(),
    events: t.Array(t.String()),
    description: t.Union([t.String(), t.Null()]),
    enabled: t.Boolean(),
    disabled_reason: t.Union([t.Literal('exhausted'), t.Literal('gone'), t.Literal('manual'), t.Null()], {
      description: 'exhausted: every attempt of an event failed; gone: the receiver answered 410; manual: turned off by PATCH',
    }),
    disabled_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    consecutive_failures: t.Integer({ description: 'Failed attempts since the last success' }),
    last_success_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  },
  {
    title: 'Webhook',
    examples: [
      {
        id: 'whk_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        url: 'https://hooks.example.com/switchboard',
        events: ['ticket.*', 'user.created'],
        description: 'Helpdesk sync',
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        consecutive_failures: 0,
        last_success_at: '2026-01-15T09:30:01.000Z',
        created_at: '2026-01-10T08:00:00.000Z',
        updated_at: '2026-01-10T08:00:00.000Z',
      },
    ],
  },
)

export const WebhookIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const WebhookListQuery = t.Object({ ...pagingQuery(['created_at']) })
export const WebhookList = listResponse('webhooks', WebhookBody)

export const DeliveryBody = t.Object(
  {
    id: t.String({ examples: ['dlv_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    event_id: t.String(),
    event_type: t.String(),
    status: t.Union([t.Literal('pending'), t.Literal('success'), t.Literal('failed'), t.Literal('skipped')], {
      description: 'skipped: the webhook was disabled when the event came (POST /recover sends it)',
    }),
    attempt: t.Integer({ description: '1 to the number of attempts of WEBHOOK_RETRY_SCHEDULE; manual retries count on' }),
    trigger: t.Union([t.Literal('event'), t.Literal('test'), t.Literal('retry'), t.Literal('recover')]),
    response_code: t.Union([t.Integer(), t.Null()], { description: 'HTTP status the receiver answered' }),
    response_time_ms: t.Union([t.Integer(), t.Null()]),
    delivered_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When the attempt ended' }),
    next_attempt_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'Pending: when it is due' }),
    error: t.Union([t.Object({ class: t.String(), message: t.String() }), t.Null()], {
      description: 'class: timeout, dns, tls, connect, http_status, redirect or ssrf_blocked',
    }),
    response_body: t.Union([t.String(), t.Null()], { description: 'The first 16 KB of the answer' }),
    created_at: t.String({ format: 'date-time' }),
  },
  {
    title: 'DeliveryRecord',
    examples: [
      {
        id: 'dlv_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        event_id: 'evt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        event_type: 'ticket.created',
        status: 'failed',
        attempt: 2,
        trigger: 'event',
        response_code: 503,
        response_time_ms: 87,
        delivered_at: '2026-01-15T09:31:00.000Z',
        next_attempt_at: null,
        error: { class: 'http_status', message: 'The receiver answered 503' },
        response_body: 'Service Unavailable',
        created_at: '2026-01-15T09:31:00.000Z',
      },
    ],
  },
)

export const DeliveryListQuery = t.Object({
  ...pagingQuery(['created_at']),
  status: t.Optional(t.Union([t.Literal('pending'), t.Literal('success'), t.Literal('failed'), t.Literal('skipped')])),
  event_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
})
export const DeliveryList = listResponse('deliveries', DeliveryBody)
export const DeliveryParams = t.Object({ id: t.String({ maxLength: 64 }), delivery_id: t.String({ maxLength: 64 }) })
export const TestWebhookBody = t.Object(
  { event_type: t.String({ minLength: 1, maxLength: 100, description: 'An event type of the catalog, e.g. ticket.created' }) },
  { examples: [{ event_type: 'ticket.created' }] },
)
export const RecoverBody = t.Object(
  { since: t.String({ description: 'RFC 3339 time, at most 14 days ago' }) },
  { examples: [{ since: '2026-01-15T00:00:00Z' }] },
)
export const RecoverResult = t.Object({
  queued: t.Integer({ description: 'Events queued again' }),
  since: t.String({ format: 'date-time' }),
})
