// The access log: one JSON line per request with exactly the agreed fields; no query string,
// header, body, token or password ever reaches it.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app.ts'
import { addTestRoutes } from '../helpers/test-routes.ts'

const app = addTestRoutes(await makeTestApp({ MAX_BODY_BYTES: '1024' }))
afterAll(() => app.close())
beforeEach(() => void app.logs.lines.splice(0))

const requestLines = () => app.logs.records().filter((r) => r.msg === 'request')

describe('access log', () => {
  test('one line per request with time, level, request_id, method, path, status, duration_ms', async () => {
    await app.request('/health', { headers: { 'x-request-id': 'one-line' } })
    const lines = requestLines()
    expect(lines).toHaveLength(1)
    const line = lines[0]!
    expect(Object.keys(line).sort()).toEqual(['duration_ms', 'level', 'method', 'msg', 'path', 'request_id', 'status', 'time'])
    expect(line).toMatchObject({ level: 'info', request_id: 'one-line', method: 'GET', path: '/health', status: 200 })
    expect(new Date(line.time as string).toISOString()).toBe(line.time as string)
    expect(line.duration_ms).toBeGreaterThanOrEqual(0)
  })

  test('records the status actually sent for every kind of response', async () => {
    const cases: [string, RequestInit, number][] = [
      ['/health', {}, 200],
      ['/nowhere', {}, 404],
      ['/health', { method: 'PATCH' }, 405],
      ['/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":1}' }, 400],
      ['/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'y'.repeat(5000) }, 413],
      ['/test/boom', {}, 500],
      ['/openapi.json', {}, 200],
    ]
    for (const [path, init] of cases) await app.request(path, init)
    expect(requestLines().map((l) => [l.path, l.status])).toEqual(cases.map(([path, , status]) => [path, status]))
    expect(requestLines().find((l) => l.status === 500)!.level).toBe('error')
  })

  test('never logs the query string, headers or bodies', async () => {
    const secrets = ['s3cr3t-query-token', 'Bearer eyJ-super-secret', 'hunter2-password', 'cookie-value-xyz']
    await app.request(`/health?access_token=${secrets[0]}`, { headers: { authorization: secrets[1]!, cookie: `sid=${secrets[3]}` } })
    await app.request('/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: secrets[1]! },
      body: JSON.stringify({ name: secrets[2], age: 'x', nested: {} }),
    })
    await app.request(`/test/boom?password=${secrets[2]}`, { headers: { authorization: secrets[1]! } })
    const everything = app.logs.lines.join('\n')
    for (const secret of secrets) expect(everything).not.toContain(secret)
    expect(requestLines().map((l) => l.path)).toEqual(['/health', '/test/echo', '/test/boom'])
  })
})
