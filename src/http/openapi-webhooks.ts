// The `webhooks` section of the OpenAPI document: one entry per event type of the catalog, each the
// POST a receiver gets (README "Webhooks"): the envelope, its `data` schema and example (the event-data
// module's, which test sends carry too), the signature headers. test/modules/events/event-schemas.test.ts
// checks real events, test sends and every example against these schemas.
import { COMPONENT_EXAMPLES, dataSchema, exampleData } from '../modules/event-data/index.ts'
import { EVENT_TYPES, type EventType } from '../modules/events/index.ts'

type Json = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

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

/** The body schema of one event type: the envelope, its type, its data (which a test send marks with `test`). */
function eventSchema(type: EventType): Json {
  return {
    allOf: [ref('EventEnvelope'), { type: 'object', properties: { type: { const: type }, data: dataSchema(type) } }],
  }
}

/** The envelope's own examples around the type's data example, in the order the event row writes them. */
function exampleEvent(type: EventType): Json {
  const first = (name: string) => ((ENVELOPE.properties as Record<string, Json>)[name]!.examples as unknown[])[0]
  return { id: first('id'), type, created_at: first('created_at'), organization_id: first('organization_id'), data: exampleData(type) }
}

/**
 * Every component an event's data refers to is in the document, its first example the one the webhook
 * examples (and test sends) carry: a model file giving its component another example than the constant
 * its module exports would make the document contradict itself. Throws, naming the component.
 */
function checkComponentExamples(components: Record<string, Json>): void {
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
    const component = components[name]
    if (!component) throw new Error(`OpenAPI webhooks: event data refers to ${name}, which is not a component`)
    const documented = (component.examples as unknown[] | undefined)?.[0]
    if (!Bun.deepEquals(documented, JSON.parse(JSON.stringify(example))))
      throw new Error(`OpenAPI webhooks: the ${name} component's first example is not the one event data examples carry`)
  }
}

/** The `webhooks` entries and the envelope component they reference; throws if the components disagree with them. */
export function webhookEvents(components: Record<string, Json>): { webhooks: Record<string, Json>; schemas: Record<string, Json> } {
  checkComponentExamples(components)
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
        requestBody: { required: true, content: { 'application/json': { schema, example: exampleEvent(type) } } },
        responses: {
          '200': { description: 'Received (any 2xx)' },
          '410': { description: 'Gone: the webhook is disabled at once' },
        },
      },
    }
  }
  return { webhooks, schemas: { EventEnvelope: ENVELOPE } }
}
