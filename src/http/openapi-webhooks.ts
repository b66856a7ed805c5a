// The `webhooks` section of the OpenAPI document: one entry per event type of the catalog, each the
// POST a receiver gets (README "Webhooks"): the envelope, its `data` schema, the signature headers.
import { EVENT_TYPES, type EventType } from '../modules/events/index.ts'
import { sampleData } from '../modules/webhooks/index.ts'

type Json = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
/** Why a payment attempt failed (the provider's code, or `invoice_overdue`, `no_payment_method`). */
const PAYMENT_ERROR = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', examples: ['card_declined'] },
    message: { type: 'string', examples: ['Your card was declined.'] },
  },
  description: 'Why the attempt failed',
}
const CHANGED = { type: 'array', items: { type: 'string' }, description: 'The fields this change set' }
/** Who handles a call, before or after a transfer. */
const HANDLER = (when: string, example: { agent_id: string | null; queue: string | null }) => ({
  type: 'object',
  description: `Who handled the call ${when} the transfer`,
  required: ['agent_id', 'queue'],
  properties: { agent_id: { type: ['string', 'null'] }, queue: { type: ['string', 'null'] } },
  examples: [example],
})
const TEST = { type: 'boolean', const: true, description: 'Present only on a test send (POST /api/v1/webhooks/{id}/test)' }

/** What `data` holds for the types the API emits today (see where each module calls emit). */
const EMITTED: Partial<Record<EventType, { properties: Json; required: string[] }>> = {
  'ticket.created': { properties: { ticket: ref('Ticket') }, required: ['ticket'] },
  'ticket.updated': { properties: { ticket: ref('Ticket'), changed: CHANGED }, required: ['ticket', 'changed'] },
  'ticket.resolved': { properties: { ticket: ref('Ticket') }, required: ['ticket'] },
  'ticket.assigned': {
    properties: {
      ticket: ref('Ticket'),
      previous_assignee_id: { type: ['string', 'null'], description: 'Who had it before; null if nobody' },
    },
    required: ['ticket', 'previous_assignee_id'],
  },
  'ticket.comment.added': { properties: { ticket: ref('Ticket'), comment: ref('Comment') }, required: ['ticket', 'comment'] },
  'user.created': { properties: { user: ref('User') }, required: ['user'] },
  'user.updated': { properties: { user: ref('User'), changed: CHANGED }, required: ['user', 'changed'] },
  'user.deleted': { properties: { user: ref('User'), changed: CHANGED }, required: ['user', 'changed'] },
  'crm.account.created': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.account.updated': { properties: { account: ref('Account'), changed: CHANGED }, required: ['account', 'changed'] },
  'crm.account.deleted': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.contact.created': { properties: { contact: ref('Contact') }, required: ['contact'] },
  'crm.contact.updated': {
    properties: {
      contact: ref('Contact'),
      changed: CHANGED,
      merged_ids: { type: 'array', items: { type: 'string' }, description: 'Present on a merge: the contacts merged into this one' },
    },
    required: ['contact', 'changed'],
  },
  'call.started': { properties: { call: ref('Call') }, required: ['call'] },
  'call.answered': { properties: { call: ref('Call') }, required: ['call'] },
  'call.transferred': {
    properties: {
      call: ref('Call'),
      from: HANDLER('before', { agent_id: null, queue: 'support' }),
      to: HANDLER('after', { agent_id: 'usr_01JH2Q8V6MZ4T3N7C5X9B1K0RS', queue: 'support' }),
    },
    required: ['call', 'from', 'to'],
  },
  'call.completed': {
    properties: {
      call: ref('Call'),
      status: {
        type: 'string',
        enum: ['completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'],
        description: 'How it ended',
        examples: ['completed'],
      },
      reason: { type: ['string', 'null'], description: "The call's end_reason", examples: ['hangup'] },
    },
    required: ['call', 'status', 'reason'],
  },
  'recording.ready': { properties: { recording: ref('Recording') }, required: ['recording'] },
  'engagement.created': { properties: { engagement: ref('Engagement') }, required: ['engagement'] },
  'engagement.closed': { properties: { engagement: ref('Engagement') }, required: ['engagement'] },
  'engagement.message.added': {
    properties: { engagement: ref('Engagement'), message: ref('Message') },
    required: ['engagement', 'message'],
  },
  'engagement.escalated': {
    properties: {
      engagement: ref('Engagement'),
      escalation: {
        type: 'object',
        required: ['level', 'to', 'reason'],
        properties: {
          level: { type: 'integer', examples: [2] },
          to: { type: 'object', description: 'Exactly one of agent_id and team', examples: [{ team: 'tier2' }] },
          reason: { type: 'string', examples: ['Refund above the agent limit'] },
        },
        description: 'This escalation',
      },
    },
    required: ['engagement', 'escalation'],
  },
  'survey.response.completed': { properties: { response: ref('SurveyResponse') }, required: ['response'] },
  'survey.response.updated': { properties: { response: ref('SurveyResponse') }, required: ['response'] },
  'subscription.created': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'subscription.updated': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'subscription.canceled': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'invoice.paid': { properties: { invoice: ref('Invoice') }, required: ['invoice'] },
  'invoice.failed': { properties: { invoice: ref('Invoice'), error: PAYMENT_ERROR }, required: ['invoice', 'error'] },
  'payment.succeeded': { properties: { payment: ref('Payment') }, required: ['payment'] },
  'payment.failed': { properties: { payment: ref('Payment'), error: PAYMENT_ERROR }, required: ['payment', 'error'] },
  'agent.status_changed': {
    properties: {
      agent: ref('Agent'),
      from: { type: 'string', description: 'The activity before', examples: ['available'] },
      to: { type: 'string', description: 'The activity after', examples: ['break'] },
      reason: { type: 'string', enum: ['login', 'set', 'capacity', 'logout', 'supervisor', 'idle'], examples: ['set'] },
    },
    required: ['agent', 'from', 'to', 'reason'],
  },
  'agent.logged_in': { properties: { agent: ref('Agent'), session: ref('AgentSession') }, required: ['agent', 'session'] },
  'agent.logged_out': {
    properties: {
      agent: ref('Agent'),
      reason: { type: 'string', enum: ['logout', 'supervisor', 'idle'], examples: ['logout'] },
      session: ref('AgentSession'),
    },
    required: ['agent', 'reason', 'session'],
  },
  'crm.contact.deleted': {
    properties: {
      contact: ref('Contact'),
      merged_into_id: { type: 'string', description: 'Present when it was merged into another contact: the survivor' },
    },
    required: ['contact'],
  },
}

const HEADERS: Array<[string, string, Json]> = [
  [
    'X-Service-Signature',
    "`sha256=` + lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook's secret",
    { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  ],
  ['webhook-id', 'Standard Webhooks: the event id, the same on every attempt (deduplicate on it)', { type: 'string' }],
  ['webhook-timestamp', "Standard Webhooks: the attempt's Unix time in seconds", { type: 'string', pattern: '^[0-9]+$' }],
  ['webhook-signature', 'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`', { type: 'string' }],
  ['X-Service-Delivery-Id', "This attempt's delivery record (dlv_…)", { type: 'string' }],
  ['X-Service-Attempt', 'The attempt number, from 1', { type: 'string', pattern: '^[0-9]+$' }],
]

const ENVELOPE: Json = {
  type: 'object',
  description: 'Every webhook body: serialized once when the event is written, re-sent byte for byte on every attempt.',
  required: ['id', 'type', 'created_at', 'organization_id', 'data'],
  properties: {
    id: { type: 'string', description: 'The event id (evt_…), as in webhook-id' },
    type: { type: 'string', description: 'An event type of the catalog' },
    created_at: { type: 'string', format: 'date-time' },
    organization_id: { type: 'string' },
    data: { type: 'object', description: 'The changed resource under its name, and what the event type adds' },
  },
}

/** `ticket.comment.added` -> `ticketCommentAddedEvent`. */
function operationId(type: string): string {
  return `${type
    .split(/[._]/)
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')}Event`
}

/** The data a sample event of the type carries: the component's example where there is one. */
function exampleData(type: EventType, schema: { properties: Json }, components: Record<string, Json>): Json {
  const sample = sampleData(type, '2026-01-15T09:30:00.000Z')
  const data: Json = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    const target = (property as { $ref?: string }).$ref
    const example = target ? (components[target.slice('#/components/schemas/'.length)]?.examples as unknown[] | undefined)?.[0] : undefined
    if (example !== undefined) data[name] = example
    else if (name === 'changed')
      data[name] = type.startsWith('user.') ? ['role'] : type.startsWith('crm.') ? ['name'] : ['status', 'priority']
    else if (name === 'previous_assignee_id') data[name] = null
    else if ((property as { examples?: unknown[] }).examples) data[name] = (property as { examples: unknown[] }).examples[0]
    else if (name in sample) data[name] = sample[name]
  }
  return data
}

function dataSchema(type: EventType): { properties: Json; required: string[]; description?: string } {
  const emitted = EMITTED[type]
  if (emitted) return emitted
  // Not emitted yet: the resource under its name, as the test send shows it; its module will name its schema.
  const [resource] = Object.keys(sampleData(type, '')).filter((key) => key !== 'test')
  return {
    properties: { [resource!]: { type: 'object', additionalProperties: true, description: `The ${resource}` } },
    required: [resource!],
    description: 'Subscribable and testable today; emitted once its module is built',
  }
}

/** The `webhooks` entries and the envelope component they reference. */
export function webhookEvents(components: Record<string, Json>): { webhooks: Record<string, Json>; schemas: Record<string, Json> } {
  const webhooks: Record<string, Json> = {}
  for (const type of Object.values(EVENT_TYPES).flat()) {
    const { description, ...data } = dataSchema(type)
    const schema = {
      allOf: [
        ref('EventEnvelope'),
        {
          type: 'object',
          properties: {
            type: { const: type },
            data: {
              type: 'object',
              ...(description ? { description } : {}),
              required: data.required,
              properties: { ...data.properties, test: TEST },
            },
          },
        },
      ],
    }
    const example = {
      id: 'evt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
      type,
      created_at: '2026-01-15T09:30:00.000Z',
      organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QA',
      data: exampleData(type, data, components),
    }
    webhooks[type] = {
      post: {
        operationId: operationId(type),
        summary: type,
        description: `Sent to every enabled webhook subscribed to \`${type}\`. Answer 2xx within WEBHOOK_TIMEOUT_MS; anything else is retried on the schedule, and 410 disables the webhook.`,
        tags: ['Webhook events'],
        security: [],
        parameters: HEADERS.map(([name, text, headerSchema]) => ({
          name,
          in: 'header',
          required: true,
          description: text,
          schema: headerSchema,
        })),
        requestBody: { required: true, content: { 'application/json': { schema, example } } },
        responses: {
          '200': { description: 'Received (any 2xx)' },
          '410': { description: 'Gone: the webhook is disabled at once' },
        },
      },
    }
  }
  return { webhooks, schemas: { EventEnvelope: ENVELOPE } }
}
