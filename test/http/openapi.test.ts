// /openapi.json documents every registered route with its responses, errors included, and is valid
// OpenAPI 3.1 by two maintained validators; /docs renders it.
import SwaggerParser from '@apidevtools/swagger-parser'
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core'
import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { SCALAR_ASSET_PATH } from '../../src/http/docs-page.ts'
import { buildDocument } from '../../src/http/openapi-document.ts'
import { isUncounted } from '../../src/http/rate-limit.ts'
import { EVENT_TYPES } from '../../src/modules/events/catalog.ts'
import { VERSION } from '../../src/version.ts'
import { json, makeTestApp } from '../helpers/app.ts'

// Not example.com: the linter warns about servers there.
const PUBLIC_URL = 'https://switchboard.acme.test'
const app = await makeTestApp({ PUBLIC_URL })
afterAll(() => app.close())

type Schema = {
  $ref?: string
  properties?: Record<string, Schema>
  required?: string[]
  allOf?: Schema[]
  const?: unknown
  type?: unknown
  items?: Schema
  anyOf?: Schema[]
}
type Media = { schema: Schema; example?: unknown }
type Response = { description: string; content?: Record<string, Media>; headers?: Record<string, { $ref: string }> }
type Operation = {
  operationId: string
  description?: string
  security?: unknown[]
  requestBody?: { required?: boolean; content: Record<string, Media> }
  responses: Record<string, Response>
}
type Document = {
  openapi: string
  info: { title: string; version: string }
  servers: { url: string }[]
  paths: Record<string, Record<string, Operation>>
  webhooks: Record<string, { post: Operation }>
  components: { schemas: Record<string, Schema>; headers: Record<string, unknown> }
}
type Route = {
  method: string
  path: string
  hooks?: { body?: unknown; detail?: { hide?: boolean; operationId?: string; security?: unknown[] } }
}

const DOC_ROUTES = new Set(['/openapi.json', '/docs', SCALAR_ASSET_PATH])
const doc = await json<Document>(await app.request('/openapi.json'))
// Hidden: the authorization server's protocol routes and pages, which follow the OAuth RFCs, not the API's shapes.
const documented = (app.app.routes as Route[]).filter((r) => !DOC_ROUTES.has(r.path) && !r.hooks?.detail?.hide)
const operationOf = (route: Route) => doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!
const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema)

/** Redocly's recommended-ruleset warnings we accept, each with its reason. */
const ACCEPTED_WARNINGS: Record<string, string> = {
  'info-license #/info': 'the project has not chosen a license yet (README, Building)',
  'operation-4xx-response #/paths/~1health/get/responses':
    'takes no input and no credential: nothing a client sends can make it fail with a 4xx',
  'operation-4xx-response #/paths/~1.well-known~1jwks.json/get/responses':
    'takes no input and no credential: nothing a client sends can make it fail with a 4xx',
}

describe('GET /openapi.json', () => {
  test('is an OpenAPI 3.1 document for this version and base URL', async () => {
    const response = await app.request('/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.headers.get('x-request-id')).toBeTruthy()
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info).toMatchObject({ title: 'Switchboard API', version: VERSION })
    expect(doc.servers).toEqual([{ url: PUBLIC_URL }])
  })

  test('@apidevtools/swagger-parser validates it', async () => {
    // validate() dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(doc) as never)
  })

  test('@redocly/openapi-core with the recommended rules: no error, and only the accepted warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintDocument({
      document: makeDocumentFromString(JSON.stringify(doc), 'openapi.json'),
      config,
      externalRefResolver: new BaseResolver(),
    })
    const found = problems.map((p) => ({ severity: p.severity, key: `${p.ruleId} ${p.location[0]?.pointer}`, message: p.message }))
    expect(found.filter((p) => p.severity === 'error')).toEqual([])
    expect(found.filter((p) => p.severity === 'warn' && !(p.key in ACCEPTED_WARNINGS))).toEqual([])
    // The linter walks the whole document (~1.5 s alone); with both engines' runs on two cores it has taken 6 s.
  }, 60_000)

  test('lists every registered route with its method and its own operation id, a unique identifier', () => {
    expect(documented.length).toBeGreaterThan(0)
    const ids = new Set<string>()
    for (const route of documented) {
      const operation = operationOf(route)
      expect(operation, `${route.method} ${route.path}`).toBeDefined()
      expect(route.hooks?.detail?.operationId, `${route.method} ${route.path} names its operation`).toBe(operation.operationId)
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z0-9]*$/)
      ids.add(operation.operationId)
    }
    for (const hook of Object.values(doc.webhooks)) ids.add(hook.post.operationId)
    expect(ids.size).toBe(documented.length + Object.keys(doc.webhooks).length)
  })

  test('every route that reads a body documents it as required JSON with its schema and an example; no other route has one', () => {
    const withBody = documented.filter((route) => route.hooks?.body !== undefined)
    expect(withBody.length).toBeGreaterThanOrEqual(22)
    for (const route of documented) {
      const { requestBody } = operationOf(route)
      // The CSV import reads its body as a stream: no schema, the media type and an example.
      if (route.path === '/api/v1/contacts/import') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['text/csv'])
        expect(requestBody!.content['text/csv']!.example).toStartWith('name,')
        continue
      }
      // The uploads read their body as a stream too: a multipart form, or the raw file.
      if (route.path === '/api/v1/uploads' && route.method === 'POST') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['multipart/form-data', 'application/octet-stream'])
        continue
      }
      // A recording: JSON {upload_id}, checked by the route (its schema and example here), or the audio, streamed.
      if (route.path === '/api/v1/calls/:id/recordings' && route.method === 'POST') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['application/json', 'audio/*', 'application/octet-stream'])
        const media = requestBody!.content['application/json']!
        expect(resolve(media.schema)).toMatchObject({ type: 'object', required: ['upload_id'] })
        expect(media.example).toEqual({ upload_id: expect.stringMatching(/^upl_/) })
        for (const audio of ['audio/*', 'application/octet-stream'])
          expect(requestBody!.content[audio]!.schema).toMatchObject({ type: 'string', format: 'binary' })
        continue
      }
      // Twilio's callbacks are form parameters, checked against their signature by the route.
      if (route.path === '/api/v1/integrations/twilio/voice-status') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['application/x-www-form-urlencoded'])
        continue
      }
      // The public survey answer: JSON, or the url-encoded form its HTML page posts.
      if (route.path === '/s/:token' && route.method === 'POST') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['application/json', 'application/x-www-form-urlencoded'])
        continue
      }
      // Stripe's events: JSON, read raw by the route (its signature covers the exact bytes).
      if (route.path === '/api/v1/integrations/stripe/webhook') {
        expect(requestBody?.required).toBe(true)
        expect(Object.keys(requestBody!.content)).toEqual(['application/json'])
        continue
      }
      if (route.hooks?.body === undefined) {
        expect(requestBody, `${route.method} ${route.path}`).toBeUndefined()
        continue
      }
      expect(requestBody?.required, `${route.method} ${route.path}`).toBe(true)
      expect(Object.keys(requestBody!.content)).toEqual(['application/json'])
      const media = requestBody!.content['application/json']!
      expect(resolve(media.schema).properties, `${route.method} ${route.path} body fields`).toBeDefined()
      expect(media.example, `${route.method} ${route.path} example`).toBeDefined()
    }
    // The body's fields, as a client sees them.
    const ticket = doc.paths['/api/v1/tickets']!.post!.requestBody!.content['application/json']!
    expect(ticket.schema.required).toEqual(['subject'])
    // A route's own description stays, with the permission it needs after it.
    expect(doc.paths['/api/v1/contacts']!.post!.description).toMatch(
      /^E-mail \(case ignored\).*Requires the `contact:create` permission\.$/,
    )
    expect(ticket.example).toMatchObject({ subject: expect.any(String) })
  })

  test('every operation documents a success and its error responses with the error body (the rate-limit body for 429)', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses)
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} success`,
        ).toBe(true)
        const errors = statuses.filter((s) => Number(s) >= 400)
        expect(errors, `${method} ${path} errors`).toContain('500')
        for (const status of errors) {
          const media = operation.responses[status]!.content!['application/json']!
          expect(media.schema.$ref).toBe(status === '429' ? '#/components/schemas/RateLimited' : '#/components/schemas/Error')
          // The example names one of the codes the response stands for.
          if (status !== '429') expect(operation.responses[status]!.description).toContain((media.example as { code: string }).code)
        }
      }
    }
    const properties = (name: string) => Object.keys(doc.components.schemas[name]!.properties!)
    expect(properties('Error')).toEqual(['code', 'message', 'request_id', 'errors'])
    expect(properties('RateLimited')).toEqual(['code', 'message', 'retry_after', 'error'])
  })

  test('valid 3.1: no `nullable` anywhere, an enum of a nullable field lists null, and a 204 has no content', () => {
    const text = JSON.stringify(doc)
    expect(text).not.toContain('"nullable"')
    // No TypeBox Void type (`"type":"void"`); Stripe's invoice status `void` is a value, not a type.
    expect(text).not.toContain('"type":"void"')
    expect(doc.components.schemas.Ticket!.properties!.type).toMatchObject({
      type: ['string', 'null'],
      enum: ['question', 'incident', 'problem', 'task', null],
    })
    const deleted = doc.paths['/api/v1/tickets/{id}']!.delete!.responses['204']!
    expect(deleted.content).toBeUndefined()
    expect(deleted.description).toBeTruthy()
  })

  test('routes that need no credential say so with `security: []`; the others name their schemes', () => {
    for (const route of documented) {
      const operation = operationOf(route)
      const needsCredential = (route.hooks?.detail?.security?.length ?? 0) > 0
      expect(operation.security, `${route.method} ${route.path}`).toEqual(
        needsCredential ? (route.hooks!.detail!.security as unknown[]) : [],
      )
    }
    for (const [method, path] of [
      ['post', '/api/v1/auth/login'],
      ['post', '/api/v1/auth/refresh'],
      ['post', '/api/v1/auth/mfa/verify'],
      ['post', '/api/v1/auth/mfa/sms/send'],
      ['get', '/health'],
      ['get', '/ready'],
      ['get', '/.well-known/jwks.json'],
    ] as const)
      expect(doc.paths[path]![method]!.security, `${method} ${path}`).toEqual([])
    expect(doc.paths['/api/v1/tickets']!.post!.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }])
  })

  test('the main resources are named components with examples, referenced where they are returned', () => {
    const names = [
      'Ticket',
      'Comment',
      'User',
      'Webhook',
      'DeliveryRecord',
      'ApiKey',
      'Session',
      'AuditLog',
      'OrganizationSecurity',
      'Tokens',
      'MfaChallenge',
      'Error',
      'RateLimited',
      'EventEnvelope',
    ]
    const text = JSON.stringify({ paths: doc.paths, webhooks: doc.webhooks })
    for (const name of names) {
      expect(doc.components.schemas[name], name).toBeDefined()
      expect(text, `${name} is referenced`).toContain(`"#/components/schemas/${name}"`)
    }
    for (const name of names.filter((n) => n !== 'EventEnvelope'))
      expect((doc.components.schemas[name] as { examples?: unknown[] }).examples?.length, `${name} example`).toBeGreaterThan(0)
    const ref = (path: string, method: string, status: string) =>
      doc.paths[path]![method]!.responses[status]!.content!['application/json']!.schema
    expect(ref('/api/v1/tickets/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Ticket' })
    expect(ref('/api/v1/tickets', 'get', '200').properties!.tickets!.items).toEqual({ $ref: '#/components/schemas/Ticket' })
    expect(ref('/api/v1/users/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/User' })
    expect(ref('/api/v1/webhooks/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Webhook' })
    expect(ref('/api/v1/webhooks/{id}/deliveries', 'get', '200').properties!.deliveries!.items).toEqual({
      $ref: '#/components/schemas/DeliveryRecord',
    })
    // The examples of list pages and of components come out of the model files.
    expect(doc.paths['/api/v1/tickets']!.get!.responses['200']!.content!['application/json']!.example).toMatchObject({
      tickets: [{ id: expect.stringMatching(/^tkt_/) }],
      next_page_token: '',
    })
  })

  test('response headers are reusable components: X-Request-Id on every response, X-RateLimit-* where counted, Retry-After on 429', () => {
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      'Idempotent-Replayed',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Request-Id',
    ])
    for (const route of documented) {
      for (const [status, response] of Object.entries(operationOf(route).responses)) {
        const where = `${route.method} ${route.path} ${status}`
        expect(response.headers?.['X-Request-Id'], where).toEqual({ $ref: '#/components/headers/X-Request-Id' })
        expect(response.headers?.['X-RateLimit-Remaining'] !== undefined, where).toBe(!isUncounted(route.path))
        expect(response.headers?.['Retry-After'] !== undefined, where).toBe(status === '429')
      }
    }
  })

  test('`webhooks` has one entry per event type of the catalog: the envelope, its data schema, the signature headers, an example', () => {
    const types = Object.values(EVENT_TYPES).flat()
    expect(Object.keys(doc.webhooks).sort()).toEqual([...types].sort())
    expect(doc.components.schemas.EventEnvelope!.required).toEqual(['id', 'type', 'created_at', 'organization_id', 'data'])
    for (const type of types) {
      const post = doc.webhooks[type]!.post
      const media = post.requestBody!.content['application/json']!
      const [envelope, own] = media.schema.allOf!
      expect(envelope, type).toEqual({ $ref: '#/components/schemas/EventEnvelope' })
      expect(own!.properties!.type!.const, type).toBe(type)
      const data = own!.properties!.data!
      expect(data.required!.length, `${type} data`).toBeGreaterThan(0)
      for (const name of data.required!) expect(data.properties![name], `${type} data.${name}`).toBeDefined()
      expect(media.example).toMatchObject({ type, data: expect.any(Object) })
      const headers = (post as { parameters?: { name: string; in: string }[] })
        .parameters!.filter((p) => p.in === 'header')
        .map((p) => p.name)
      expect(headers).toEqual(expect.arrayContaining(['X-Service-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']))
    }
    // The types emitted today carry the resource's component.
    expect(
      doc.webhooks['ticket.created']!.post.requestBody!.content['application/json']!.schema.allOf![1]!.properties!.data!.properties!.ticket,
    ).toEqual({ $ref: '#/components/schemas/Ticket' })
    expect(
      doc.webhooks['ticket.comment.added']!.post.requestBody!.content['application/json']!.schema.allOf![1]!.properties!.data!.properties!
        .comment,
    ).toEqual({ $ref: '#/components/schemas/Comment' })
    expect(
      doc.webhooks['user.created']!.post.requestBody!.content['application/json']!.schema.allOf![1]!.properties!.data!.properties!.user,
    ).toEqual({ $ref: '#/components/schemas/User' })
  })

  test('is the same whichever routes have run before it was built (Elysia adds to their schemas when they run)', async () => {
    const used = await makeTestApp({ PUBLIC_URL })
    try {
      for (const route of documented)
        await used.request(route.path.replace(/:(\w+)/g, 'x'), {
          method: route.method,
          headers: { 'content-type': 'application/json' },
          body: route.method === 'GET' ? undefined : '{}',
        })
      expect(await json<Document>(await used.request('/openapi.json'))).toEqual(doc)
    } finally {
      await used.close()
    }
    // A request to each of ~200 routes, then the document again: over 5 s with both engines' runs on two cores.
  }, 60_000)

  test('/ready documents its 503', () => {
    expect(Object.keys(doc.paths['/ready']!.get!.responses)).toContain('503')
  })

  test('two different schemas under one title are refused when the document is built', () => {
    const toy = new Elysia()
      .get('/a', () => ({ id: 'a' }), { response: t.Object({ id: t.String() }, { title: 'Thing' }), detail: { operationId: 'getA' } })
      .get('/b', () => ({ name: 'b' }), { response: t.Object({ name: t.String() }, { title: 'Thing' }), detail: { operationId: 'getB' } })
    expect(() => buildDocument(toy, { info: { title: 'toy', version: '1' }, servers: [], tags: [], components: {} })).toThrow(
      'two different schemas are titled Thing',
    )
  })
})

describe('GET /docs', () => {
  test('serves the interactive reference pointing at /openapi.json', async () => {
    const response = await app.request('/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    const html = await response.text()
    expect(html).toContain('/openapi.json')
    // Scalar's bundle comes from the binary, not a CDN (test/http/docs-browser.test.ts renders the page offline).
    expect(html).toContain(SCALAR_ASSET_PATH)
    expect(html).not.toContain('cdn.jsdelivr.net')
  })
})
