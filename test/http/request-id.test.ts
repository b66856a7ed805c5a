// X-Request-Id: kept when the client's is 1–128 safe characters, otherwise made; on every response
// and on every log line the request produces.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { addTestRoutes } from '../helpers/test-routes.ts'

const app = addTestRoutes(await makeTestApp({ MAX_BODY_BYTES: '1024' }))
afterAll(() => app.close())

// A made id: a random prefix for this process (12 base64url characters) and a base-36 counter.
const MADE_ID = /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/

describe('client ids', () => {
  const kept = ['abc', 'req-42', 'a'.repeat(128), '0af7651916cd43dd8448eb211c80319c', 'trace:1.2_3', 'Root=1-5e1b4151+abc/def@x', 'Z']
  for (const id of kept) {
    test(`keeps ${id.length > 20 ? id.slice(0, 20) + '…' : id}`, async () => {
      const response = await app.request('/health', { headers: { 'x-request-id': id } })
      expect(response.headers.get('x-request-id')).toBe(id)
    })
  }

  const replaced: [string, string][] = [
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'has space'],
    ['a semicolon', 'a;b'],
    ['angle brackets', '<script>'],
    ['a quote', 'say"hi'],
    ['a comma', 'a,b'],
    ['non-ASCII', 'caf\u00e9'],
  ]
  for (const [name, id] of replaced) {
    test(`replaces one with ${name}`, async () => {
      const response = await app.request('/health', { headers: { 'x-request-id': id } })
      expect(response.headers.get('x-request-id')).toMatch(MADE_ID)
    })
  }

  test('makes a fresh one per request when none is sent', async () => {
    const a = (await app.request('/health')).headers.get('x-request-id')
    const b = (await app.request('/health')).headers.get('x-request-id')
    expect(a).toMatch(MADE_ID)
    expect(b).toMatch(MADE_ID)
    expect(a).not.toBe(b)
  })
})

describe('on every response', () => {
  const cases: [string, string, RequestInit][] = [
    ['200', '/health', {}],
    ['404', '/missing', {}],
    ['405', '/health', { method: 'POST' }],
    ['400', '/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }],
    ['413', '/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2000) }],
    ['500', '/test/boom', {}],
    ['openapi', '/openapi.json', {}],
  ]
  for (const [name, path, init] of cases) {
    test(`${name}: the header echoes the client's id, and error bodies carry it`, async () => {
      const id = `rid-${name}`
      const response = await app.request(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-request-id': id } })
      expect(response.headers.get('x-request-id')).toBe(id)
      if (response.status >= 400) expect((await json(response)).request_id).toBe(id)
    })
  }

  test('every log line a request writes carries its id', async () => {
    await app.request('/test/boom', { headers: { 'x-request-id': 'rid-log-check' } })
    const lines = app.logs.records().filter((r) => r.request_id === 'rid-log-check')
    expect(lines.map((l) => l.msg).sort()).toEqual(['request', 'unhandled error'])
  })
})
