// Real events and test sends against the documentation: every event type of the catalog is made to
// happen through the API, and every event written must validate against the OpenAPI document's webhook
// schema of its type (webhook-schemas.ts: ajv, objects closed); so must every webhook example, and what a
// receiver gets from a test send of every type, whose data must be the documented example's.
import { afterAll, expect, test } from 'bun:test'
import { webhookEvents } from '../../../src/http/openapi-webhooks.ts'
import { exampleOf } from '../../../src/modules/event-data/index.ts'
import { EVENT_TYPES } from '../../../src/modules/events/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { startStripeServer } from '../../helpers/stripe-server.ts'
import { allowWebhookCidrs } from '../webhooks/allow.ts'
import { causeEveryEvent } from './every-event.ts'
import { documentedExample, type WebhookDocument, webhookChecker } from './webhook-schemas.ts'

type Json = Record<string, unknown>

const stripe = await startStripeServer()
const receiver = await startReceiver()
const app = await makeTestApp({ ...stripe.settings, PUBLIC_URL: 'https://switchboard.example' }, { webhookCa: receiver.ca })
afterAll(async () => {
  await app.close()
  stripe.close()
  receiver.stop()
})
const response = await app.request('/openapi.json')
// Its build throws when an example cannot be made: say so here, not as a TypeError further down.
if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}: ${app.logs.lines.slice(-3).join('\n')}`)
const doc = await json<WebhookDocument>(response)
const problems = webhookChecker(doc)
const TYPES: string[] = Object.values(EVENT_TYPES).flat()

test('every webhook example validates against its own schema', () => {
  expect(Object.keys(doc.webhooks).sort()).toEqual([...TYPES].sort())
  expect(TYPES.flatMap((type) => problems(type, documentedExample(doc, type)))).toEqual([])
  // The check can fail: a field no schema names, a null where none is allowed, a missing one.
  const doctored = documentedExample(doc, 'crm.contact.lead_converted') as { data: Record<string, Json> }
  doctored.data.lead!.surprise = 1
  doctored.data.contact = null as never
  delete doctored.data.account
  expect(problems('crm.contact.lead_converted', doctored).map((problem) => problem.split(' {')[0])).toEqual([
    "crm.contact.lead_converted: /data must have required property 'account'",
    'crm.contact.lead_converted: /data/lead must NOT have additional properties',
    'crm.contact.lead_converted: /data/contact must be object',
  ])
})

test("a component whose first example is not the one event data carries fails the document's build, naming it", () => {
  const { Ticket, Upload, ...others } = doc.components.schemas
  const { examples: _, ...ticket } = Ticket!
  expect(() => webhookEvents({ ...doc.components.schemas, Ticket: ticket })).toThrow(
    "OpenAPI webhooks: the Ticket component's first example is not the one event data examples carry",
  )
  const upload = { ...Upload, examples: [{ ...(Upload!.examples as Json[])[0], size_bytes: 1 }] }
  expect(() => webhookEvents({ ...doc.components.schemas, Upload: upload })).toThrow("the Upload component's first example is not")
  expect(() => webhookEvents({ ...others, Ticket: Ticket! })).toThrow('event data refers to Upload, which is not a component')
})

test('a value with no example to take from fails the example, naming where it is', () => {
  const data = {
    type: 'object',
    required: ['ticket', 'changed'],
    properties: { ticket: { $ref: '#/components/schemas/Ticket' }, changed: { type: 'array', items: { type: 'string' } } },
  }
  expect(() => exampleOf(data, 'ticket.updated.data')).toThrow(/^Event data: no example for ticket\.updated\.data\.changed\[\]: give/)
  expect(() => exampleOf({ $ref: '#/components/schemas/Nothing' }, 'x.data.y')).toThrow(
    'x.data.y refers to #/components/schemas/Nothing, and COMPONENT_EXAMPLES has no example of it',
  )
})

test('every event type happens through the API, and every event written matches its schema', async () => {
  const [acme, globex] = [await seedOrganization(app, 'acme'), await seedOrganization(app, 'globex')]
  await causeEveryEvent(app, acme, globex)
  const rows = await app.context.db.raw.all<{ type: string; body: string }>(
    'SELECT type, body FROM events WHERE organization_id IN (?, ?) ORDER BY created_at, id',
    [acme.org.id, globex.org.id],
  )
  expect([...new Set(rows.map((row) => row.type))].sort()).toEqual([...TYPES].sort())
  expect(rows.flatMap((row) => problems(row.type, JSON.parse(row.body)))).toEqual([])
}, 60_000)

test("a test send of every event type reaches the receiver with its type's documented example data, marked as a test", async () => {
  const { org, users } = await seedOrganization(app, 'initech')
  await allowWebhookCidrs(app, org.id)
  const post = (path: string, body: unknown) =>
    app.request(path, { method: 'POST', headers: { ...users.admin.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const created = await post('/api/v1/webhooks', { url: receiver.url(), events: ['ticket.created'], secret: 'sixteen-chars-ok!' })
  expect(created.status).toBe(201)
  const { id } = await json<{ id: string }>(created)
  for (const type of TYPES) {
    const answer = await post(`/api/v1/webhooks/${id}/test`, { event_type: type })
    expect({ type, status: answer.status, record: await json<Json>(answer) }).toMatchObject({
      type,
      status: 200,
      record: { status: 'success' },
    })
  }
  const bodies = receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: Json })
  expect(bodies.map((body) => body.type)).toEqual(TYPES)
  expect(bodies.flatMap((body) => problems(body.type, body))).toEqual([])
  expect(bodies.map((body) => body.data)).toEqual(TYPES.map((type) => ({ ...(documentedExample(doc, type).data as Json), test: true })))
}, 60_000)
