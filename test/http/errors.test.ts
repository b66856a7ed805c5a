// Every error path renders DESIGN.md's body {code, message, request_id, errors?} with the right status.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { addTestRoutes } from '../helpers/test-routes.ts'

const app = addTestRoutes(await makeTestApp({ MAX_BODY_BYTES: '1024' }))
afterAll(() => app.close())

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

/** Asserts the status, the exact body (request_id taken from the header) and the JSON content type. */
async function expectError(response: Response, status: number, body: Record<string, unknown>) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  const requestId = response.headers.get('x-request-id')
  expect(requestId).toBeTruthy()
  expect(await json(response)).toEqual({ ...body, request_id: requestId })
}

const validBody = { name: 'Ada', age: 36, nested: { tags: ['x'] } }

describe('routing errors', () => {
  test('unknown route -> 404 NOT_FOUND', async () => {
    await expectError(await app.request('/nope'), 404, { code: 'NOT_FOUND', message: 'No route matches this path' })
    await expectError(await app.request('/api/v1/nothing/here'), 404, { code: 'NOT_FOUND', message: 'No route matches this path' })
  })

  test('wrong method on a known path -> 405 with Allow', async () => {
    const response = await app.request('/health', { method: 'DELETE' })
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    await expectError(response, 405, { code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not allowed here; use GET, HEAD' })
  })

  test('wrong method on a path with a parameter -> 405', async () => {
    const response = await app.request('/test/items/42', { method: 'PUT' })
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    await expectError(response, 405, { code: 'METHOD_NOT_ALLOWED', message: 'PUT is not allowed here; use GET, HEAD' })
  })

  test('GET on a POST-only path -> 405 naming POST', async () => {
    const response = await app.request('/test/echo')
    expect(response.headers.get('allow')).toBe('POST')
    await expectError(response, 405, { code: 'METHOD_NOT_ALLOWED', message: 'GET is not allowed here; use POST' })
  })
})

describe('bodies', () => {
  test('a valid body passes', async () => {
    const response = await postJson('/test/echo', JSON.stringify(validBody))
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual(validBody)
  })

  test('malformed JSON -> 400 VALIDATION_FAILED naming the body', async () => {
    await expectError(await postJson('/test/echo', '{"name": "Ada",'), 400, {
      code: 'VALIDATION_FAILED',
      message: 'The request body could not be parsed',
      errors: [{ field: 'body', message: 'Malformed JSON' }],
    })
  })

  test('schema mismatch -> 400 with one entry per offending field', async () => {
    await expectError(await postJson('/test/echo', JSON.stringify({ name: '', age: 1.5, nested: { tags: ['ok', 7] } })), 400, {
      code: 'VALIDATION_FAILED',
      message: 'The request is invalid',
      errors: [
        { field: 'name', message: 'Expected string length greater or equal to 1' },
        { field: 'age', message: 'Expected integer' },
        { field: 'nested.tags.1', message: 'Expected string' },
      ],
    })
  })

  test('missing fields are named', async () => {
    const response = await postJson('/test/echo', JSON.stringify({ age: 3 }))
    expect(response.status).toBe(400)
    const body = await json<{ errors: { field: string; message: string }[] }>(response)
    expect(body.errors).toEqual([
      { field: 'name', message: 'Expected required property' },
      { field: 'nested', message: 'Expected required property' },
    ])
  })

  test('an empty JSON body where one is required -> 400 naming the body', async () => {
    await expectError(await postJson('/test/echo', ''), 400, {
      code: 'VALIDATION_FAILED',
      message: 'The request is invalid',
      errors: [{ field: 'body', message: 'Expected object' }],
    })
  })

  test('a body that is not JSON -> 415 saying what to send', async () => {
    const response = await app.request('/test/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=Ada' })
    await expectError(response, 415, {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the body as JSON with Content-Type: application/json',
    })
  })

  test('a body over MAX_BODY_BYTES -> 413, by Content-Length, before it is read', async () => {
    const big = JSON.stringify({ ...validBody, name: 'x'.repeat(2000) })
    await expectError(await postJson('/test/echo', big), 413, {
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than 1024 bytes',
    })
  })

  test('a chunked body (no Content-Length) over the limit -> 413 while reading', async () => {
    const chunk = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(700) }))
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(chunk)
        controller.enqueue(chunk)
        controller.close()
      },
    })
    const response = await app.request('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    await expectError(response, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1024 bytes' })
  })

  test('a chunked body under the limit is read whole', async () => {
    const text = JSON.stringify(validBody)
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)))
        controller.enqueue(new TextEncoder().encode(text.slice(10)))
        controller.close()
      },
    })
    const response = await app.request('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual(validBody)
  })
})

describe('query parameters', () => {
  test('a coerced number out of range names its field', async () => {
    await expectError(await app.request('/test/query?page_size=0'), 400, {
      code: 'VALIDATION_FAILED',
      message: 'The request is invalid',
      errors: [{ field: 'page_size', message: 'Expected integer to be greater or equal to 1' }],
    })
  })

  test('a non-number names its field and the expected type', async () => {
    await expectError(await app.request('/test/query?page_size=ten'), 400, {
      code: 'VALIDATION_FAILED',
      message: 'The request is invalid',
      errors: [{ field: 'page_size', message: 'Expected integer' }],
    })
  })
})

describe('unexpected failures', () => {
  test('a thrown error -> 500 INTERNAL with only "Internal error"; the log line has the detail', async () => {
    const response = await app.request('/test/boom')
    const requestId = response.headers.get('x-request-id')
    await expectError(response, 500, { code: 'INTERNAL', message: 'Internal error' })
    const logged = app.logs.records().find((r) => r.msg === 'unhandled error' && r.request_id === requestId)
    expect(logged).toMatchObject({
      level: 'error',
      method: 'GET',
      path: '/test/boom',
      error: { name: 'Error', message: 'the disk caught fire' },
    })
    expect((logged!.error as { stack: string }).stack).toContain('test-routes.ts')
  })

  test('a response that breaks its own schema is our bug -> 500, not a client error', async () => {
    await expectError(await app.request('/test/bad-response'), 500, { code: 'INTERNAL', message: 'Internal error' })
  })
})
