// Idempotency-Key over time and under load: concurrent requests with one key run the operation once, a
// key still in progress is 409 until its claim counts as abandoned, a 5xx frees the key, and a key works
// anew after 24 hours. Two test-only routes behind the real auth macros give a handler that waits and one
// that fails once.
import { afterAll, describe, expect, test } from 'bun:test'
import { authMacros } from '../../src/http/auth.ts'
import { ABANDONED_AFTER_MS, KEY_TTL_MS } from '../../src/modules/idempotency/index.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization, signIn } from '../helpers/seed.ts'
import { until } from '../helpers/wait.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
// Signed in again after the clock jumps a day: access tokens do not last that long.
let { admin } = acme.users

// The first call to /slow waits for the test to open the gate; /flaky fails (500) at its first call.
const calls = { slow: 0, flaky: 0 }
let openGate = () => {}
const gate = new Promise<void>((resolve) => {
  openGate = resolve
})
app.app
  .use(authMacros(app.context))
  .post(
    '/api/v1/test/slow',
    async ({ set }) => {
      const call = ++calls.slow
      if (call === 1) await gate
      set.status = 201
      set.headers.location = `/api/v1/test/things/${call}`
      return { call }
    },
    { permission: 'ticket:create' },
  )
  .post(
    '/api/v1/test/flaky',
    ({ set }) => {
      const call = ++calls.flaky
      if (call === 1) throw new Error('the disk caught fire')
      set.status = 201
      return { call }
    },
    { permission: 'ticket:create' },
  )

const post = (path: string, key: string, body: unknown = { subject: 'Printer on fire' }) =>
  app.request(path, {
    method: 'POST',
    headers: { ...admin.auth, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  })
const ticketCount = async () =>
  (await json<{ total_count: number }>(await app.request('/api/v1/tickets?include_total=true', { headers: admin.auth }))).total_count
const codeOf = async (response: Response) => (await json<{ code: string }>(response.clone() as Response)).code

describe('concurrent requests with one key', () => {
  test('10 at once create ONE ticket: one 201 runs, the others get 409 IDEMPOTENCY_KEY_IN_USE or its replay', async () => {
    const before = await ticketCount()
    const key = crypto.randomUUID()
    const responses = await Promise.all(Array.from({ length: 10 }, () => post('/api/v1/tickets', key)))
    const ran = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)
    expect(ran).toHaveLength(1)
    const first = await ran[0]!.clone().text()
    for (const response of responses) {
      if (response === ran[0]) continue
      if (response.status === 409) expect(await codeOf(response)).toBe('IDEMPOTENCY_KEY_IN_USE')
      else {
        expect(response.status).toBe(201)
        expect(response.headers.get('idempotent-replayed')).toBe('true')
        expect(await response.text()).toBe(first)
      }
    }
    expect(await ticketCount()).toBe(before + 1)
    // Once it has answered, every retry is the replay.
    const retry = await post('/api/v1/tickets', key)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(first)
  })
})

describe('a request still running', () => {
  test('holds its key (409) until it counts as abandoned; then a retry takes it over and its answer is the one kept', async () => {
    const key = crypto.randomUUID()
    const stuck = post('/api/v1/test/slow', key, { n: 1 })
    await until(() => calls.slow === 1, 'the first request to reach its handler')

    const busy = await post('/api/v1/test/slow', key, { n: 1 })
    expect(busy.status).toBe(409)
    expect(await json(busy)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.stringContaining('still in progress') })
    app.clock.advance(ABANDONED_AFTER_MS - 1000)
    expect(await codeOf(await post('/api/v1/test/slow', key, { n: 1 }))).toBe('IDEMPOTENCY_KEY_IN_USE')
    // Another request under the key is refused as such, even while the first runs.
    expect(await codeOf(await post('/api/v1/test/slow', key, { n: 2 }))).toBe('IDEMPOTENCY_KEY_REUSED')

    app.clock.advance(1000)
    const takeover = await post('/api/v1/test/slow', key, { n: 1 })
    expect(takeover.status).toBe(201)
    expect(takeover.headers.get('idempotent-replayed')).toBeNull()
    expect(takeover.headers.get('location')).toBe('/api/v1/test/things/2')
    expect(await json(takeover)).toEqual({ call: 2 })
    expect(app.logs.records().some((r) => r.msg === 'idempotency key taken over from an abandoned request')).toBe(true)

    // The first request answers at last; its answer no longer belongs to the key and is not kept.
    openGate()
    const late = await stuck
    expect(late.status).toBe(201)
    expect(await json(late)).toEqual({ call: 1 })
    const retry = await post('/api/v1/test/slow', key, { n: 1 })
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.headers.get('location')).toBe('/api/v1/test/things/2')
    expect(await json(retry)).toEqual({ call: 2 })
    expect(calls.slow).toBe(2)
  })
})

describe('a 5xx is not kept', () => {
  test('the failed request frees its key: the retry runs the operation, and its answer is then replayed', async () => {
    const key = crypto.randomUUID()
    const failed = await post('/api/v1/test/flaky', key)
    expect(failed.status).toBe(500)
    expect(await codeOf(failed)).toBe('INTERNAL')
    const retry = await post('/api/v1/test/flaky', key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
    expect(await json(retry)).toEqual({ call: 2 })
    const again = await post('/api/v1/test/flaky', key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(again)).toEqual({ call: 2 })
    expect(calls.flaky).toBe(2)
  })
})

describe('after 24 hours', () => {
  test('the answer is replayed up to the last millisecond, then the key works anew (a new ticket), whatever its old request', async () => {
    const key = crypto.randomUUID()
    const first = await json<{ id: string }>(await post('/api/v1/tickets', key))
    app.clock.advance(KEY_TTL_MS - 1)
    admin = await signIn(app, admin.user)
    const late = await post('/api/v1/tickets', key)
    expect(late.headers.get('idempotent-replayed')).toBe('true')
    expect((await json<{ id: string }>(late)).id).toBe(first.id)
    expect(await codeOf(await post('/api/v1/tickets', key, { subject: 'Another' }))).toBe('IDEMPOTENCY_KEY_REUSED')

    app.clock.advance(1)
    const before = await ticketCount()
    const anew = await post('/api/v1/tickets', key, { subject: 'Another' })
    expect(anew.status).toBe(201)
    expect(anew.headers.get('idempotent-replayed')).toBeNull()
    expect((await json<{ id: string }>(anew)).id).not.toBe(first.id)
    expect(await ticketCount()).toBe(before + 1)
  })
})
