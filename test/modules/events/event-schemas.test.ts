// Real events against the documentation: every event type of the catalog is made to happen through the
// API, and every event written must validate (ajv, JSON Schema 2020-12) against the OpenAPI document's
// webhook schema of its type, $refs resolved against its components; so must every webhook example.
// Validated strictly: an object may carry only the properties its schema names, so a field the
// document does not mention (in data or in a resource) fails here, not in a receiver's code.
import { afterAll, expect, test } from 'bun:test'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { webhookEvents } from '../../../src/http/openapi-webhooks.ts'
import { EVENT_TYPES } from '../../../src/modules/events/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { startStripeServer } from '../../helpers/stripe-server.ts'
import { causeEveryEvent } from './every-event.ts'

type Json = Record<string, unknown>
type Media = { schema: Json; example: Json }
type Document = {
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': Media } } } }>
  components: { schemas: Record<string, Json> }
}

const stripe = await startStripeServer()
const app = await makeTestApp({ ...stripe.settings, PUBLIC_URL: 'https://switchboard.example' })
afterAll(async () => {
  await app.close()
  stripe.close()
})
const response = await app.request('/openapi.json')
// Its build throws when an example cannot be made: say so here, not as a TypeError further down.
if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}: ${app.logs.lines.slice(-3).join('\n')}`)
const doc = await json<Document>(response)
const TYPES: string[] = Object.values(EVENT_TYPES).flat()

/**
 * The schema with every object closed to properties it does not name. Not the members of an allOf: each
 * names only its share of the properties (the envelope, then type and data).
 */
function closed(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item, inAllOf))
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples' || key === 'const' || key === 'enum' || key === 'default') out[key] = value
    else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, s]) => [name, closed(s)]))
    else out[key] = closed(value, key === 'allOf')
  }
  const open = !('additionalProperties' in out || 'patternProperties' in out || 'unevaluatedProperties' in out)
  if ('properties' in out && open && !inAllOf) out.additionalProperties = false
  return out
}

/** One validator per event type: its webhook body schema, refs pointing into the components added once. */
function validators(document: Document): Map<string, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false })
  addFormats(ajv)
  // Elysia's t.Numeric documents its string form as `format: integer` (a number written in digits).
  ajv.addFormat('integer', /^-?\d+$/)
  const local = (schema: unknown) => JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/schemas/', '"components#/$defs/'))
  ajv.addSchema({ $id: 'components', $defs: local(document.components.schemas) })
  return new Map(
    TYPES.map((type) => [type, ajv.compile(local(document.webhooks[type]!.post.requestBody.content['application/json'].schema))]),
  )
}

const validate = validators(doc)
/** What is wrong with `body` as an event of `type` (an empty list if nothing). */
function problems(type: string, body: unknown): string[] {
  const check = validate.get(type)!
  return check(body) ? [] : check.errors!.map((error) => `${type}: ${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`)
}

test('every webhook example validates against its own schema', () => {
  expect(Object.keys(doc.webhooks).sort()).toEqual([...TYPES].sort())
  const example = (type: string) => structuredClone(doc.webhooks[type]!.post.requestBody.content['application/json'].example)
  expect(TYPES.flatMap((type) => problems(type, example(type)))).toEqual([])
  // The check can fail: a field no schema names, a null where none is allowed, a missing one.
  const doctored = example('crm.contact.lead_converted') as { data: Record<string, Json> }
  doctored.data.lead!.surprise = 1
  doctored.data.contact = null as never
  delete doctored.data.account
  expect(problems('crm.contact.lead_converted', doctored).map((problem) => problem.split(' {')[0])).toEqual([
    "crm.contact.lead_converted: /data must have required property 'account'",
    'crm.contact.lead_converted: /data/lead must NOT have additional properties',
    'crm.contact.lead_converted: /data/contact must be object',
  ])
})

test('a value with no example to take from fails the build of the document, naming where it is', () => {
  const { examples: _, ...ticket } = doc.components.schemas.Ticket!
  expect(() => webhookEvents({ ...doc.components.schemas, Ticket: ticket })).toThrow(
    /^OpenAPI webhooks: no example for ticket\.created\.data\.ticket\.\w+: give its schema examples/,
  )
  expect(() => webhookEvents({ ...doc.components.schemas, Upload: { type: 'object' } })).toThrow(
    'no example for ticket.created.data.uploads[]',
  )
})

test('every event type happens through the API, and every event written matches its schema', async () => {
  await causeEveryEvent(app, await seedOrganization(app, 'acme'), await seedOrganization(app, 'globex'))
  const rows = await app.context.db.raw.all<{ type: string; body: string }>('SELECT type, body FROM events ORDER BY created_at, id')
  expect([...new Set(rows.map((row) => row.type))].sort()).toEqual([...TYPES].sort())
  expect(rows.flatMap((row) => problems(row.type, JSON.parse(row.body)))).toEqual([])
}, 60_000)
