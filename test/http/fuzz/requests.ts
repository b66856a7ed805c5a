// The route fuzzer's requests, from the app's own OpenAPI document: for every operation, its path with
// ids of every kind, missing ones and junk; its body from the documented example, then with each field
// (and nested field) given a bad value, and replaced whole; its query parameters given bad values. The
// valid request comes last (a DELETE then deletes after its mutations ran). Which ones, a seeded PRNG picks.
import { FIELD_VALUES, JUNK_IDS, QUERY_VALUES, sample, withRealIds } from './mutations.ts'
import type { Ids } from './records.ts'

type Schema = {
  $ref?: string
  properties?: Record<string, Schema>
  examples?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
}
type Media = { schema?: Schema; example?: unknown }
type Parameter = { name?: string; in?: string }
export type Operation = { security?: unknown[]; parameters?: Parameter[]; requestBody?: { content: Record<string, Media> } }
export type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

export interface FuzzRequest {
  method: string
  path: string
  /** Sent as is; `type` is its Content-Type. */
  body?: string | Uint8Array | FormData
  type?: string
}

/** The kind of record a path parameter names: by its name, else by the collection before it. */
const KIND_OF_COLLECTION: Record<string, string> = {
  accounts: 'account',
  contacts: 'contact',
  leads: 'lead',
  tickets: 'ticket',
  uploads: 'upload',
  files: 'upload',
  calls: 'call',
  recordings: 'recording',
  engagements: 'engagement',
  surveys: 'survey',
  'survey-responses': 'survey',
  webhooks: 'webhook',
  'oauth-clients': 'oauth_client',
  'api-keys': 'api_key',
  users: 'user',
  agents: 'user',
  'agent-activities': 'activity',
  sessions: 'session',
  organizations: 'org',
  invoices: 'invoice',
}
const KIND_OF_PARAMETER: Record<string, string> = {
  delivery_id: 'delivery',
  org_id: 'org',
  key: 'activity',
  token: 'survey_token',
  plan: 'plan',
}

function kindOf(path: string, parameter: string): string | undefined {
  if (KIND_OF_PARAMETER[parameter]) return KIND_OF_PARAMETER[parameter]
  const segments = path.split('/')
  return KIND_OF_COLLECTION[segments[segments.indexOf(`{${parameter}}`) - 1] ?? '']
}

/** The path with every parameter given its own kind's record, except `parameter`, given `value`. */
function fill(path: string, ids: Ids, parameter?: string, value?: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(name === parameter ? value! : (ids[kindOf(path, name) ?? ''] ?? 'none')),
  )
}

function resolve(doc: Document, schema: Schema | undefined): Schema {
  return schema?.$ref ? (doc.components.schemas[schema.$ref.split('/').pop()!] ?? {}) : (schema ?? {})
}

/** The fields of an object schema, those of each of its alternatives (anyOf, oneOf, allOf) included. */
function fieldsOf(doc: Document, schema: Schema | undefined): Record<string, Schema> {
  const resolved = resolve(doc, schema)
  const alternatives = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])]
  return Object.assign({}, ...alternatives.map((alternative) => fieldsOf(doc, alternative)), resolved.properties)
}

/** The bad values of a field: the same for all, plus every seeded id (of every kind) for one that names a record. */
function valuesFor(name: string, ids: Ids): readonly unknown[] {
  if (!/_ids?$/.test(name)) return FIELD_VALUES
  const all = [...FIELD_VALUES, ...Object.values(ids)]
  return name.endsWith('_ids') ? [...all, ...all.map((value) => [value])] : all
}

/** Bodies of one media type: each field (and its fields) given each bad value, then whole bodies that are no object. */
function bodies(doc: Document, media: Media, example: Record<string, unknown>, ids: Ids): unknown[] {
  const out: unknown[] = [{}, [], null, 'text', 42, { ...example, unknown_field: 1 }]
  for (const [name, field] of Object.entries(fieldsOf(doc, media.schema))) {
    for (const value of valuesFor(name, ids)) out.push({ ...example, [name]: value })
    const around = typeof example[name] === 'object' && !Array.isArray(example[name]) ? (example[name] as object) : {}
    for (const inner of Object.keys(fieldsOf(doc, field)))
      for (const value of valuesFor(inner, ids)) out.push({ ...example, [name]: { ...around, [inner]: value } })
  }
  return out
}

function encode(type: string, body: unknown): FuzzRequest['body'] {
  if (type === 'application/json') return JSON.stringify(body)
  if (type === 'application/x-www-form-urlencoded')
    return new URLSearchParams(Object.entries((body as object) ?? {}).map(([k, v]) => [k, String(v)] as [string, string])).toString()
  return typeof body === 'string' ? body : JSON.stringify(body)
}

/** Bodies that are not JSON, for a route reading files, CSV or audio. */
function rawBodies(type: string): FuzzRequest['body'][] {
  if (type === 'multipart/form-data') {
    const form = (purpose: string, file: Blob | string) => {
      const data = new FormData()
      data.set('purpose', purpose)
      data.set('file', file)
      return data
    }
    return [
      form('attachment', new Blob(['a note'], { type: 'text/plain' })),
      form('bogus', new Blob([''])),
      form('recording', 'not a file'),
    ]
  }
  return [
    '',
    '\xff\xfe',
    'a,b\n"unclosed',
    'name\n' + 'x,'.repeat(10_000),
    'x'.repeat(100_000),
    new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0]),
  ]
}

/** Every request of one operation, mutated ones first, at most `budget` of them plus the valid one. */
export function requestsOf(doc: Document, method: string, path: string, ids: Ids, random: () => number, budget: number): FuzzRequest[] {
  const operation = doc.paths[path]![method]!
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name!)
  const contents = Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [type.replace('/*', '/wav'), media] as const)
  const [type, media] = contents[0] ?? []
  const exampleOf = (m: Media | undefined) => withRealIds(m?.example ?? m?.schema?.examples?.[0] ?? {}, ids) as Record<string, unknown>
  const base = fill(path, ids)
  const valid: FuzzRequest = { method, path: base, ...(type && { type, body: encode(type, exampleOf(media)) }) }
  const variants: FuzzRequest[] = []
  for (const parameter of path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
    const kind = kindOf(path, parameter) ?? ''
    const values = [...Object.values(ids), `${(ids[kind] ?? 'x_').split('_')[0]}_00000000000000000000000000`, ...JUNK_IDS]
    for (const value of values) variants.push({ ...valid, path: fill(path, ids, parameter, value) })
  }
  for (const name of query)
    for (const value of [...QUERY_VALUES, ids.contact!])
      variants.push({ ...valid, path: `${base}?${name}=${encodeURIComponent(value)}&${name}=${encodeURIComponent(value)}` })
  for (const [type, media] of contents) {
    if (type === 'application/json' || type === 'application/x-www-form-urlencoded')
      for (const body of bodies(doc, media, exampleOf(media), ids)) variants.push({ ...valid, type, body: encode(type, body) })
    else for (const body of rawBodies(type)) variants.push({ ...valid, type: type === 'multipart/form-data' ? undefined : type, body })
  }
  return [...sample(random, variants, budget), valid]
}
