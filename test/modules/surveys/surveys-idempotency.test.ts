// The routes whose answer holds a survey's public link take no Idempotency-Key (issue 27): like the other
// routes whose answers hold a secret shown once (POST /api/v1/api-keys), they ignore the header, so the
// link is never kept for a replay: each request runs anew and nothing is replayed.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { expectError, type Offered, respondent, surveysApp, surveysClient } from './surveys-api.ts'

const { app, acme } = await surveysApp()
const { admin } = acme.users
const { ticket } = surveysClient(app, admin)
const visitor = respondent(app)

const post = (path: string, key: string, body?: unknown) =>
  app.request(path, {
    method: 'POST',
    headers: { ...admin.auth, 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const replayed = (response: Response) => response.headers.get('idempotent-replayed')
const newApiKey = (key: string) =>
  post('/api/v1/api-keys', key, { name: 'CI', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() })
const csatBody = async () => ({ survey_type: 'csat', subject_type: 'ticket', subject_id: (await ticket()).id })

describe('Idempotency-Key is ignored where the answer holds the public link', () => {
  test('POST /api/v1/surveys: a retry under the same key runs anew (409, the ticket has its survey), as POST /api/v1/api-keys mints a second token', async () => {
    const key = crypto.randomUUID()
    // What the other secret-returning routes give: the header ignored, a new secret each time.
    const [firstKey, secondKey] = [await newApiKey(key), await newApiKey(key)]
    expect([firstKey.status, secondKey.status, replayed(secondKey)]).toEqual([201, 201, null])
    expect((await json<{ token: string }>(firstKey)).token).not.toBe((await json<{ token: string }>(secondKey)).token)

    const body = await csatBody()
    const first = await post('/api/v1/surveys', key, body)
    expect([first.status, replayed(first)]).toEqual([201, null])
    const { response } = await json<Offered>(first)
    const retry = await post('/api/v1/surveys', key, body)
    expect(replayed(retry)).toBeNull()
    const conflict = await expectError(retry, 409, 'CONFLICT', 'subject_id')
    expect(conflict.message).toContain(response.id)
  })

  test('POST /api/v1/surveys/{id}/link: two requests under one key give two links, and only the newest works', async () => {
    const { response } = await json<Offered>(await post('/api/v1/surveys', crypto.randomUUID(), await csatBody()))
    const key = crypto.randomUUID()
    const first = await post(`/api/v1/surveys/${response.id}/link`, key)
    const second = await post(`/api/v1/surveys/${response.id}/link`, key)
    expect([first.status, second.status, replayed(second)]).toEqual([200, 200, null])
    const [older, newer] = [(await json<Offered>(first)).url, (await json<Offered>(second)).url]
    expect(newer).not.toBe(older)
    await expectError(await visitor.getJson(older), 404, 'NOT_FOUND')
    expect((await visitor.getJson(newer)).status).toBe(200)
  })

  test('a malformed key is not even checked there, as on POST /api/v1/api-keys; no key is kept, and the API description offers none', async () => {
    const malformed = 'k'.repeat(256)
    expect((await newApiKey(malformed)).status).toBe(201)
    const offered = await post('/api/v1/surveys', malformed, await csatBody())
    expect(offered.status).toBe(201)
    const { response } = await json<Offered>(offered)
    expect((await post(`/api/v1/surveys/${response.id}/link`, malformed)).status).toBe(200)

    const kept = await app.context.db.raw.all('SELECT idempotency_key FROM idempotency_keys WHERE scope = ?', [admin.user.id])
    expect(kept).toEqual([])

    const doc = await json<{ paths: Record<string, { post: { parameters?: { $ref?: string }[] } }> }>(await app.request('/openapi.json'))
    for (const path of ['/api/v1/surveys', '/api/v1/surveys/{id}/link'])
      expect(doc.paths[path]!.post.parameters?.some((p) => p.$ref === '#/components/parameters/IdempotencyKey') ?? false, path).toBe(false)
  })
})
