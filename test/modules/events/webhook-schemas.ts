// The OpenAPI document's webhook schemas as ajv validators (JSON Schema 2020-12), $refs resolved against
// its components and every object closed: an object may carry only the properties its schema names, so a
// field the document does not mention (in data or in a resource) fails a test, not a receiver's code.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

type Json = Record<string, unknown>
type Media = { schema: Json; example: Json }
export type WebhookDocument = {
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': Media } } } }>
  components: { schemas: Record<string, Json> }
}

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

/** One validator per event type of the document: its webhook body schema, refs pointing into the components added once. */
function validators(document: WebhookDocument): Map<string, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false })
  addFormats(ajv)
  // Elysia's t.Numeric documents its string form as `format: integer` (a number written in digits).
  ajv.addFormat('integer', /^-?\d+$/)
  const local = (schema: unknown) => JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/schemas/', '"components#/$defs/'))
  ajv.addSchema({ $id: 'components', $defs: local(document.components.schemas) })
  return new Map(
    Object.entries(document.webhooks).map(([type, hook]) => [
      type,
      ajv.compile(local(hook.post.requestBody.content['application/json'].schema)),
    ]),
  )
}

/** `problems(type, body)`: what is wrong with `body` as an event of `type` (an empty list if nothing). */
export function webhookChecker(document: WebhookDocument): (type: string, body: unknown) => string[] {
  const validate = validators(document)
  return (type, body) => {
    const check = validate.get(type)
    if (!check) return [`${type}: not a webhook of the document`]
    return check(body)
      ? []
      : check.errors!.map((error) => `${type}: ${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`)
  }
}

/** The documented example of `type`'s webhook body (a copy). */
export function documentedExample(document: WebhookDocument, type: string): Json {
  return structuredClone(document.webhooks[type]!.post.requestBody.content['application/json'].example)
}
