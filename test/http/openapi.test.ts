// /openapi.json documents every registered route with its responses, errors included; /docs renders it.
import { afterAll, describe, expect, test } from 'bun:test'
import { VERSION } from '../../src/version.ts'
import { json, makeTestApp } from '../helpers/app.ts'

const app = await makeTestApp({ PUBLIC_URL: 'https://sb.example.com' })
afterAll(() => app.close())

type Operation = { responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }> }
type Document = { openapi: string; info: { title: string; version: string }; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> }

const DOC_ROUTES = new Set(['/openapi.json', '/docs'])

describe('GET /openapi.json', () => {
  test('is an OpenAPI 3.1 document for this version and base URL', async () => {
    const response = await app.request('/openapi.json')
    expect(response.status).toBe(200)
    const doc = await json<Document>(response)
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info).toMatchObject({ title: 'Switchboard API', version: VERSION })
    expect(doc.servers).toEqual([{ url: 'https://sb.example.com' }])
  })

  test('lists every registered route with its method', async () => {
    const doc = await json<Document>(await app.request('/openapi.json'))
    const routes = app.app.routes.filter((r) => !DOC_ROUTES.has(r.path))
    expect(routes.length).toBeGreaterThan(0)
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined()
    }
  })

  test('every operation documents a success and its error responses with the error body (the rate-limit body for 429)', async () => {
    const doc = await json<Document>(await app.request('/openapi.json'))
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses)
        expect(statuses.some((s) => s.startsWith('2')), `${method} ${path} success`).toBe(true)
        const errors = statuses.filter((s) => Number(s) >= 400)
        expect(errors, `${method} ${path} errors`).toContain('500')
        for (const status of errors) {
          const properties = operation.responses[status]!.content!['application/json']!.schema.properties!
          // A 429 is the spec's rate-limit body; every other error is the error body.
          const expected = status === '429' ? ['code', 'message', 'retry_after', 'error'] : ['code', 'message', 'request_id', 'errors']
          expect(Object.keys(properties), `${method} ${path} ${status}`).toEqual(expected)
        }
      }
    }
  })

  test('/ready documents its 503', async () => {
    const doc = await json<Document>(await app.request('/openapi.json'))
    expect(Object.keys(doc.paths['/ready']!.get!.responses).sort()).toEqual(['200', '500', '503'])
  })
})

describe('GET /docs', () => {
  test('serves the interactive reference pointing at /openapi.json', async () => {
    const response = await app.request('/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    const html = await response.text()
    expect(html).toContain('openapi.json')
    expect(html).toContain('@scalar/api-reference@1.72.1')
  })
})
