// Builds the OpenAPI 3.1 document once from the app's routes: @elysiajs/openapi derives paths,
// parameters and responses from the runtime `t` schemas; this file finishes what it cannot do.
// Request bodies (our body parser is a function the plugin cannot describe), valid 3.1 (no
// `nullable`, no content on 204), `security: []` on public routes, named components for every
// schema with a `title`, response headers, examples, the Idempotency-Key parameter of the POSTs that
// take one, and the `webhooks` section of the event catalog.
import { toOpenAPISchema, unwrapSchema } from '@elysiajs/openapi/openapi'
import type { AnyElysia } from 'elysia'
import { takesIdempotencyKey } from './idempotency.ts'
import { documentIdempotency, IDEMPOTENCY_PARAMETERS, REPLAYED_RESPONSE_HEADER } from './openapi-idempotency.ts'
import { isUncounted } from './rate-limit.ts'
import { webhookEvents } from './openapi-webhooks.ts'

type Json = Record<string, unknown>
type Operation = Json & { responses?: Record<string, Json>; requestBody?: Json; security?: unknown[]; operationId?: string }
type RouteLike = {
  method: string
  path: string
  hooks?: { body?: unknown; detail?: { hide?: boolean; requestBody?: unknown; responses?: unknown } }
}

const OPENAPI_VERSION = '3.1.1'
const HEADER = (name: string) => ({ $ref: `#/components/headers/${name}` })

/** Headers documented once and referenced by every response that carries them. */
export const RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'Id of the request: the one sent in X-Request-Id if it was acceptable, else a new one; also in error bodies and the log',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed in the most constraining window that was checked', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets, in Unix seconds', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
  'Idempotent-Replayed': REPLAYED_RESPONSE_HEADER,
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems'])
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
])

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Rewrites a schema bottom-up: `fn` sees each subschema after its own subschemas were rewritten. */
function mapSchema(schema: unknown, fn: (schema: Json) => Json): unknown {
  if (!isObject(schema)) return schema
  const out: Json = { ...schema }
  for (const [key, value] of Object.entries(out)) {
    if (SCHEMA_MAPS.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, mapSchema(child, fn)]))
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((child) => mapSchema(child, fn))
    else if (SCHEMA_VALUES.has(key) && isObject(value)) out[key] = mapSchema(value, fn)
  }
  return fn(out)
}

/**
 * OpenAPI 3.0's `nullable` is not 3.1: the type array already says it; an enum must then list null too.
 * Elysia's own keywords (`error`: a custom message, `noValidate`) are not JSON Schema. And Elysia adds
 * `additionalProperties: false` to a response's object schemas when the route first runs: left in, the
 * document would depend on which routes had run before it was built (no model file sets it with `properties`).
 */
function toJsonSchema2020(schema: Json): Json {
  const { nullable: _nullable, error: _error, noValidate: _noValidate, ...rest } = schema
  if (rest.additionalProperties === false && isObject(rest.properties)) delete rest.additionalProperties
  if (Array.isArray(rest.type) && rest.type.includes('null') && Array.isArray(rest.enum) && !rest.enum.includes(null))
    rest.enum = [...rest.enum, null]
  return rest
}

/** The media type objects of an operation's request body and responses. */
function mediaOf(operation: Operation): Json[] {
  return [operation.requestBody, ...Object.values(operation.responses ?? {})].flatMap((part) =>
    Object.values((part?.content as Record<string, Json> | undefined) ?? {}),
  )
}

/** Every schema position of an operation (request body, responses, parameters), rewritten by `fn`. */
function eachSchema(operation: Operation, fn: (schema: unknown) => unknown): void {
  for (const entry of mediaOf(operation)) if (entry.schema) entry.schema = fn(entry.schema)
  for (const parameter of (operation.parameters as Json[] | undefined) ?? []) if (parameter.schema) parameter.schema = fn(parameter.schema)
}

/**
 * A schema with a `title` becomes `#/components/schemas/<title>`. Two different schemas under one title
 * are a bug in a model file and fail here, at the first request of the document (a test makes it).
 */
class Components {
  readonly schemas: Record<string, Json> = {}
  private readonly shapes = new Map<string, string>()

  hoist(schema: unknown): unknown {
    return mapSchema(schema, (node) => {
      if (typeof node.title !== 'string') return node
      const name = node.title
      // The plugin folds `X | null` into X's own object with a type array; the component is X.
      const nullable = Array.isArray(node.type) && node.type.includes('null')
      const { description: _description, examples: _examples, ...rest } = node
      // One type left is written as that type ("object", not ["object"]): the same shape as X used alone.
      const types = nullable ? (node.type as string[]).filter((type) => type !== 'null') : []
      const component: Json = nullable ? { ...node, type: types.length === 1 ? types[0] : types } : node
      const shape = JSON.stringify(nullable ? { ...rest, type: component.type } : rest)
      const known = this.shapes.get(name)
      if (known === undefined) {
        this.shapes.set(name, shape)
        this.schemas[name] = component
      } else if (known !== shape) {
        throw new Error(`OpenAPI: two different schemas are titled ${name}`)
      } else if (this.schemas[name]!.description !== component.description) {
        // Uses that describe it differently (the codes of one status, say) keep that in their response.
        delete this.schemas[name]!.description
      }
      const ref = { $ref: `#/components/schemas/${name}` }
      return nullable ? { anyOf: [ref, { type: 'null' }] } : ref
    })
  }
}

/**
 * An example of a schema from the examples written in the model files: its own, the first variant's
 * that has one, or an object (a list page, say) assembled from its required properties'.
 */
function exampleOf(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return undefined
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (Array.isArray(schema.anyOf)) {
    for (const variant of schema.anyOf) {
      const example = exampleOf(variant, depth + 1)
      if (example !== undefined) return example
    }
    return undefined
  }
  if (schema.type === 'array') {
    const item = exampleOf(schema.items, depth + 1)
    return item === undefined ? undefined : [item]
  }
  if (schema.type !== 'object' || !isObject(schema.properties)) return undefined
  const example: Json = {}
  for (const name of (schema.required as string[] | undefined) ?? []) {
    const value = exampleOf(schema.properties[name], depth + 1)
    if (value === undefined) return undefined
    example[name] = value
  }
  return example
}

/** The schema's example, when the model files give one, as the media type's `example`. */
function liftExample(entry: Json): void {
  if (entry.example !== undefined) return
  const example = exampleOf(entry.schema)
  if (example !== undefined) entry.example = example
}

function requestBodyOf(route: RouteLike): Json | undefined {
  const body = route.hooks?.body
  if (!body || route.method === 'GET' || route.method === 'HEAD') return undefined
  const optional = isObject(body) && (body as Record<symbol, unknown>)[Symbol.for('TypeBox.Optional')] === 'Optional'
  const schema = JSON.parse(JSON.stringify(unwrapSchema(body as never, undefined, 'input', OPENAPI_VERSION) ?? {})) as Json
  const { description } = schema
  return { ...(description ? { description } : {}), required: !optional, content: { 'application/json': { schema } } }
}

function responseHeaders(path: string, status: string): Record<string, Json> {
  const headers: Record<string, Json> = { 'X-Request-Id': HEADER('X-Request-Id') }
  if (!isUncounted(path))
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) headers[name] = HEADER(name)
  if (status === '429') headers['Retry-After'] = HEADER('Retry-After')
  return headers
}

/** The whole document; `base` holds info, servers, tags and security schemes. */
export function buildDocument(app: AnyElysia, base: { info: Json; servers: Json[]; tags: Json[]; components: Json }): Json {
  // JSON round trip: plain data, free of TypeBox's symbols and of any object the routes still use.
  const generated = JSON.parse(JSON.stringify(toOpenAPISchema(app, { staticFile: false }, undefined, undefined, OPENAPI_VERSION))) as {
    paths: Record<string, Record<string, Operation>>
  }
  const components = new Components()

  // Every route of the app this plugin is used in, as the generator sees them (protected in Elysia's types only).
  const routes = (app as unknown as { getGlobalRoutes(): RouteLike[] }).getGlobalRoutes()
  for (const route of routes) {
    if (route.hooks?.detail?.hide) continue
    const path = route.path.replace(/:([^/]+)/g, '{$1}')
    const operation = generated.paths[path]?.[route.method.toLowerCase()]
    if (!operation) continue
    const requestBody = requestBodyOf(route)
    if (requestBody) operation.requestBody = requestBody
    // A route that reads its body as a stream (a CSV import) describes it in its detail.
    else if (!route.hooks?.detail?.requestBody) delete operation.requestBody
    // A route answering other than JSON (a CSV export) describes that answer in its detail; its errors
    // come from its response schemas, which the generator writes over the detail's.
    const ownResponses = route.hooks?.detail?.responses
    if (ownResponses)
      operation.responses = { ...(JSON.parse(JSON.stringify(ownResponses)) as Record<string, Json>), ...operation.responses }
    // Only the auth macros declare security; a route without them needs no credential.
    if (!operation.security?.length) operation.security = []
    // The permission macro's mark, after the route's own words.
    const permission = operation['x-permission']
    if (typeof permission === 'string')
      operation.description = [operation.description, `Requires the \`${permission}\` permission.`].filter(Boolean).join(' ')
    eachSchema(operation, (schema) => mapSchema(schema, toJsonSchema2020))
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      // The plugin writes `content: {type: "void"}` for t.Void(): a 204 has no content at all.
      if (isObject(response.content) && typeof response.content.type === 'string') delete response.content
      response.headers = { ...(response.headers as Json | undefined), ...responseHeaders(route.path, status) }
    }
    // Before hoisting: an error response's example names its own code, not the Error component's.
    for (const entry of mediaOf(operation)) liftExample(entry)
    eachSchema(operation, (schema) => components.hoist(schema))
    if (operation.security.length > 0 && takesIdempotencyKey(route.method, route.path))
      documentIdempotency(operation, (status) => responseHeaders(route.path, status))
  }

  const webhooks = webhookEvents(components.schemas)
  return {
    openapi: OPENAPI_VERSION,
    info: base.info,
    servers: base.servers,
    tags: base.tags,
    paths: generated.paths,
    webhooks: webhooks.webhooks,
    components: {
      ...base.components,
      schemas: sortKeys({ ...components.schemas, ...webhooks.schemas }),
      parameters: IDEMPOTENCY_PARAMETERS,
      headers: RESPONSE_HEADERS,
    },
  }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}
