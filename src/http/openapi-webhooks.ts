// The `webhooks` section of the OpenAPI document: one entry per event type of the catalog, each the
// POST a receiver gets (README "Webhooks"): the envelope, its `data` schema, the signature headers, and
// an example built from that schema alone (test/modules/events/event-schemas.test.ts checks real events
// and every example against these schemas).
import { EVENT_TYPES, type EventType } from '../modules/events/index.ts'

type Json = Record<string, unknown>

/** What `data` holds for one event type: its properties, which of them are always there, and where its example comes from. */
interface EventData {
  properties: Json
  required: string[]
  /** A component whose first example is this data as a whole (default: built property by property). */
  examplesFrom?: string
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const nullable = (schema: Json, description: string) => ({ anyOf: [schema, { type: 'null' }], description })
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
const changed = (...fields: string[]) => ({
  type: 'array',
  items: { type: 'string' },
  description: 'The fields this change set',
  examples: [fields],
})
/** Files attached with the ticket or comment, whole (empty when none). */
const UPLOADS = { type: 'array', items: ref('Upload'), description: 'The uploads attached by this change, whole' }
/** Who handles a call, before or after a transfer. */
const HANDLER = (when: string, example: { agent_id: string | null; queue: string | null }) => ({
  type: 'object',
  description: `Who handled the call ${when} the transfer`,
  required: ['agent_id', 'queue'],
  properties: { agent_id: { type: ['string', 'null'] }, queue: { type: ['string', 'null'] } },
  examples: [example],
})
const TEST = { type: 'boolean', const: true, description: 'Present only on a test send (POST /api/v1/webhooks/{id}/test)' }
/** An object of exactly one string property: one side of an either-or. */
const only = (name: string) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string' } },
  additionalProperties: false,
})

/** What `data` holds for every type of the catalog (see where each module calls recordChange): a new type needs one here. */
const EMITTED: Record<EventType, EventData> = {
  'ticket.created': { properties: { ticket: ref('Ticket'), uploads: UPLOADS }, required: ['ticket', 'uploads'] },
  'ticket.updated': { properties: { ticket: ref('Ticket'), changed: changed('status', 'priority') }, required: ['ticket', 'changed'] },
  'ticket.resolved': { properties: { ticket: ref('Ticket') }, required: ['ticket'] },
  'ticket.assigned': {
    properties: {
      ticket: ref('Ticket'),
      previous_assignee_id: { type: ['string', 'null'], description: 'Who had it before; null if nobody', examples: [null] },
    },
    required: ['ticket', 'previous_assignee_id'],
  },
  'ticket.comment.added': {
    properties: { ticket: ref('Ticket'), comment: ref('Comment'), uploads: UPLOADS },
    required: ['ticket', 'comment', 'uploads'],
  },
  'user.created': { properties: { user: ref('User') }, required: ['user'] },
  'user.updated': { properties: { user: ref('User'), changed: changed('role') }, required: ['user', 'changed'] },
  'user.deleted': { properties: { user: ref('User'), changed: changed('status') }, required: ['user', 'changed'] },
  'crm.account.created': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.account.updated': { properties: { account: ref('Account'), changed: changed('name') }, required: ['account', 'changed'] },
  'crm.account.deleted': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.contact.created': { properties: { contact: ref('Contact') }, required: ['contact'] },
  'crm.contact.updated': {
    properties: {
      contact: ref('Contact'),
      changed: changed('name'),
      merged_ids: {
        type: 'array',
        items: { type: 'string' },
        description: 'Present on a merge: the contacts merged into this one',
        examples: [['con_01KAX3Q0B6N8R2T4V6X8Z0B2D4']],
      },
    },
    required: ['contact', 'changed'],
  },
  'crm.contact.deleted': {
    properties: {
      contact: ref('Contact'),
      merged_into_id: {
        type: 'string',
        description: 'Present when it was merged into another contact: the survivor',
        examples: ['con_01KAX3M6W9P8T2V5G7H4J3C1QZ'],
      },
    },
    required: ['contact'],
  },
  // The contact is the one the conversion found or made, always there; the account only when one was asked for.
  'crm.contact.lead_converted': {
    properties: {
      lead: ref('Lead'),
      contact: ref('Contact'),
      account: nullable(ref('Account'), 'The account it was converted into; null when the conversion made or linked none'),
    },
    required: ['lead', 'contact', 'account'],
    examplesFrom: 'LeadConversion',
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
          to: { description: 'Exactly one of agent_id and team', oneOf: [only('agent_id'), only('team')], examples: [{ team: 'tier2' }] },
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
  // agents/login.ts adds the session only when it finds the agent's open one: every logout through the API
  // has one today, but the code allows none, so the schema does too.
  'agent.logged_out': {
    properties: {
      agent: ref('Agent'),
      reason: { type: 'string', enum: ['logout', 'supervisor', 'idle'], examples: ['logout'] },
      session: ref('AgentSession'),
    },
    required: ['agent', 'reason'],
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
    id: { type: 'string', description: 'The event id (evt_…), as in webhook-id', examples: ['evt_01KAX3M6W9P8T2V5G7H4J3C1QZ'] },
    type: { type: 'string', description: 'An event type of the catalog' },
    created_at: { type: 'string', format: 'date-time', examples: ['2026-01-15T09:30:00.000Z'] },
    organization_id: { type: 'string', examples: ['org_01KAX3M6W9P8T2V5G7H4J3C1QA'] },
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

/**
 * An example of `schema` from what the schema itself says: its first example or its const, the
 * component it refers to, the first branch of a choice, one item of an array, the required properties
 * of an object. Nothing else is made up: a value with none of these throws, naming where it is.
 */
function exampleOf(schema: Json, components: Record<string, Json>, at: string): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (typeof schema.$ref === 'string') return exampleOf(componentOf(schema.$ref, components, at), components, at)
  const choice = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (choice) return exampleOf(choice[0]!, components, at)
  if (schema.allOf) return exampleOf(merged(schema.allOf as Json[], components, at), components, at)
  if (schema.type === 'array' && schema.items) return [exampleOf(schema.items as Json, components, `${at}[]`)]
  if (schema.properties) {
    const properties = schema.properties as Record<string, Json>
    return Object.fromEntries(
      ((schema.required as string[] | undefined) ?? []).map((name) => [name, exampleOf(properties[name]!, components, `${at}.${name}`)]),
    )
  }
  throw new Error(`OpenAPI webhooks: no example for ${at}: give its schema examples, or refer to a component that has one`)
}

function componentOf(target: string, components: Record<string, Json>, at: string): Json {
  const component = components[target.slice('#/components/schemas/'.length)]
  if (!component) throw new Error(`OpenAPI webhooks: ${at} refers to ${target}, which is not a component`)
  return component
}

/** The branches of an allOf as one object schema: their properties (a later branch's win) and all their required. */
function merged(branches: Json[], components: Record<string, Json>, at: string): Json {
  const resolved = branches.map((branch) => (typeof branch.$ref === 'string' ? componentOf(branch.$ref, components, at) : branch))
  return {
    properties: Object.assign({}, ...resolved.map((branch) => branch.properties ?? {})),
    required: [...new Set(resolved.flatMap((branch) => (branch.required as string[] | undefined) ?? []))],
  }
}

/** The body schema of one event type: the envelope, its type, its data (which a test send marks with `test`). */
function eventSchema(type: EventType): Json {
  const { properties, required } = EMITTED[type]
  return {
    allOf: [
      ref('EventEnvelope'),
      {
        type: 'object',
        properties: { type: { const: type }, data: { type: 'object', required, properties: { ...properties, test: TEST } } },
      },
    ],
  }
}

function exampleEvent(type: EventType, schema: Json, components: Record<string, Json>): unknown {
  const { examplesFrom } = EMITTED[type]
  const event = exampleOf(schema, { ...components, EventEnvelope: ENVELOPE }, type) as Json
  if (examplesFrom) event.data = exampleOf({ $ref: `#/components/schemas/${examplesFrom}` }, components, `${type}.data`)
  return event
}

/** The `webhooks` entries and the envelope component they reference; throws if an example cannot be built. */
export function webhookEvents(components: Record<string, Json>): { webhooks: Record<string, Json>; schemas: Record<string, Json> } {
  const webhooks: Record<string, Json> = {}
  for (const type of Object.values(EVENT_TYPES).flat()) {
    const schema = eventSchema(type)
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
        requestBody: { required: true, content: { 'application/json': { schema, example: exampleEvent(type, schema, components) } } },
        responses: {
          '200': { description: 'Received (any 2xx)' },
          '410': { description: 'Gone: the webhook is disabled at once' },
        },
      },
    }
  }
  return { webhooks, schemas: { EventEnvelope: ENVELOPE } }
}
