// Idempotency-Key on POST /api/v1/tickets as a client sees it: a retry gets the first answer replayed
// (one ticket), another request under the key is 409, keys are per user, the header is checked, what is
// kept and what is not, and which routes ignore the header.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const { admin, agent } = acme.users

type Auth = Record<string, string>
const post = (path: string, key: string | undefined, body: unknown, auth: Auth = admin.auth) =>
  app.request(path, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  })
const createTicket = (key: string | undefined, body: unknown = { subject: 'Printer on fire' }, auth: Auth = admin.auth) =>
  post('/api/v1/tickets', key, body, auth)
const ticketCount = async () =>
  (await json<{ total_count: number }>(await app.request('/api/v1/tickets?include_total=true', { headers: admin.auth }))).total_count
const newKey = () => crypto.randomUUID()

/** What a client can compare of two answers: status, the headers a replay repeats, the body's bytes. */
const answer = async (response: Response) => ({
  status: response.status,
  contentType: response.headers.get('content-type'),
  location: response.headers.get('location'),
  body: await response.text(),
})

async function expectCode(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = await json<{ code: string; message: string; errors?: { field: string; message: string }[] }>(response)
  expect(body.code).toBe(code)
  return body
}

describe('a retry with the same key and the same request', () => {
  test('gets the first answer again, byte for byte, with Idempotent-Replayed; the ticket is created once', async () => {
    const before = await ticketCount()
    const key = newKey()
    const first = await createTicket(key)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const firstAnswer = await answer(first)
    const retry = await createTicket(key)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    // Each answer has its own request id; the replayed body is the first one.
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    expect(await answer(retry)).toEqual(firstAnswer)
    expect(await answer(await createTicket(key))).toEqual(firstAnswer)
    expect(await ticketCount()).toBe(before + 1)
  })

  test('a request without a key is not deduplicated: two tickets', async () => {
    const before = await ticketCount()
    const a = await json<{ id: string }>(await createTicket(undefined))
    const b = await json<{ id: string }>(await createTicket(undefined))
    expect(a.id).not.toBe(b.id)
    expect(await ticketCount()).toBe(before + 2)
  })

  test('an error answered by the operation itself is kept and replayed too (a 404 of an unknown ticket)', async () => {
    const key = newKey()
    const path = '/api/v1/tickets/tkt_01M80000000000000000000000/comments'
    const first = await post(path, key, { body: 'Hello' })
    const firstAnswer = await answer(first)
    expect(firstAnswer.status).toBe(404)
    const retry = await post(path, key, { body: 'Hello' })
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    // The body is the first one, request_id included.
    expect(await answer(retry)).toEqual(firstAnswer)
  })
})

describe('the same key with another request', () => {
  test('another body -> 409 IDEMPOTENCY_KEY_REUSED, and nothing is created', async () => {
    const key = newKey()
    expect((await createTicket(key, { subject: 'First' })).status).toBe(201)
    const before = await ticketCount()
    const refused = await expectCode(await createTicket(key, { subject: 'Second' }), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(refused.message).toContain('another request')
    expect(await ticketCount()).toBe(before)
  })

  test('another path -> 409 IDEMPOTENCY_KEY_REUSED; the first request still replays', async () => {
    const key = newKey()
    const first = await answer(await createTicket(key))
    const ticket = JSON.parse(first.body) as { id: string }
    await expectCode(await post(`/api/v1/tickets/${ticket.id}/comments`, key, { body: 'Any news?' }), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await answer(await createTicket(key))).toEqual(first)
  })

  test('another user with the same key gets a ticket of its own', async () => {
    const key = newKey()
    const mine = await json<{ id: string }>(await createTicket(key))
    const theirs = await createTicket(key, { subject: 'Printer on fire' }, agent.auth)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('idempotent-replayed')).toBeNull()
    expect((await json<{ id: string }>(theirs)).id).not.toBe(mine.id)
  })
})

describe('the header', () => {
  test.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé-1'],
    ['a tab', 'a\tb'],
  ])('%s -> 400 VALIDATION_FAILED naming Idempotency-Key, and no ticket', async (_, key) => {
    const before = await ticketCount()
    const body = await expectCode(await createTicket(key), 400, 'VALIDATION_FAILED')
    expect(body.errors).toEqual([{ field: 'Idempotency-Key', message: 'Must be 1 to 255 printable ASCII characters' }])
    expect(await ticketCount()).toBe(before)
  })

  test('255 printable characters, spaces and punctuation included, are a key', async () => {
    const key = ` ~!${'x'.repeat(252)}`
    expect(key).toHaveLength(255)
    const first = await answer(await createTicket(key))
    expect(first.status).toBe(201)
    expect(await answer(await createTicket(key))).toEqual(first)
  })
})

describe('requests refused before the operation runs do not use the key', () => {
  test('a body that fails the schema (400): the key then serves a valid request', async () => {
    const key = newKey()
    await expectCode(await createTicket(key, { subject: 42 }), 400, 'VALIDATION_FAILED')
    const valid = await createTicket(key)
    expect(valid.status).toBe(201)
    expect(valid.headers.get('idempotent-replayed')).toBeNull()
  })

  test('no credential (401) and a missing permission (403) leave the key free', async () => {
    const key = newKey()
    await expectCode(await createTicket(key, { subject: 'x' }, {}), 401, 'UNAUTHENTICATED')
    const hook = { url: 'https://example.com/hook', events: ['ticket.*'], secret: 'a-secret-of-16-chars-or-more' }
    await expectCode(await post('/api/v1/webhooks', key, hook, agent.auth), 403, 'INSUFFICIENT_PERMISSIONS')
    // The agent's key was not taken by the refused request: it serves the agent's next request.
    const created = await createTicket(key, { subject: 'x' }, agent.auth)
    expect(created.status).toBe(201)
    expect(created.headers.get('idempotent-replayed')).toBeNull()
  })
})

describe('routes that take no key ignore the header', () => {
  test('POST /api/v1/api-keys: its answer holds a token shown once, never stored: two keys, two tokens', async () => {
    const key = newKey()
    const body = { name: 'CI', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() }
    const first = await post('/api/v1/api-keys', key, body)
    const second = await post('/api/v1/api-keys', key, body)
    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect((await json<{ token: string }>(first)).token).not.toBe((await json<{ token: string }>(second)).token)
  })

  test('a GET ignores it', async () => {
    const key = newKey()
    const response = await app.request('/api/v1/tickets', { headers: { ...admin.auth, 'idempotency-key': key } })
    expect(response.status).toBe(200)
    expect(response.headers.get('idempotent-replayed')).toBeNull()
    // Nor does it take the key: a POST may use it.
    expect((await createTicket(key)).headers.get('idempotent-replayed')).toBeNull()
  })
})
