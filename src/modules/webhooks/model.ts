// Request and response schemas of the webhook endpoints.
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { MAX_FILTERS } from './filters.ts'
import { MAX_URL_LENGTH } from './url.ts'

const url = t.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'https URL of the receiver; not a private, loopback or link-local address' })
const events = t.Array(t.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: MAX_FILTERS,
  description: 'Event type names, `*` for all, or a group prefix such as `ticket.*`',
})
const secret = t.String({ minLength: 16, maxLength: 256, description: 'Signs every delivery (HMAC-SHA256); never returned' })
const description = t.String({ maxLength: 500 })

export const CreateWebhookBody = t.Object({ url, events, secret, description: t.Optional(description) })

export const UpdateWebhookBody = t.Object(
  {
    url: t.Optional(url),
    events: t.Optional(events),
    secret: t.Optional(secret),
    description: t.Optional(t.Union([description, t.Null()])),
    enabled: t.Optional(t.Boolean({ description: 'true turns a disabled webhook back on and clears its failure state' })),
  },
  { minProperties: 1 },
)

export const WebhookBody = t.Object({
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
})

export const WebhookIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const WebhookListQuery = t.Object({ ...pagingQuery(['created_at']) })
export const WebhookList = listResponse('webhooks', WebhookBody)
