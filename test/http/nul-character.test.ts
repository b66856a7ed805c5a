// A NUL character (U+0000) anywhere a client can put text — the path, the query, a JSON, form or text
// body — is 400 VALIDATION_FAILED before any route runs, on both engines alike: no field of ours holds
// one, and PostgreSQL text cannot (it failed with a 500 there, where SQLite found nothing).
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)
const auth = users.admin.auth

async function expectNulRefused(response: Response) {
  expect(response.status).toBe(400)
  expect(await json(response)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Text must not contain the NUL character (U+0000)' })
}

describe('a NUL character', () => {
  test('in a path id, on every kind of by-id route', async () => {
    for (const path of ['/api/v1/users/%00', '/api/v1/tickets/tkt_%00', '/api/v1/webhooks/%00', '/api/v1/oauth-clients/ocl_%00'])
      await expectNulRefused(await app.request(path, { headers: auth }))
    await expectNulRefused(await app.request('/api/v1/auth/sessions/%00', { method: 'DELETE', headers: auth }))
  })

  test('in a query parameter, before authentication', async () => {
    await expectNulRefused(await app.request('/api/v1/tickets?status=open%00'))
  })

  test('in a JSON body, however deep', async () => {
    const body = JSON.stringify({ subject: 'Printer', description: 'x', tags: ['a\u0000b'] })
    await expectNulRefused(
      await app.request('/api/v1/tickets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }),
    )
    const key = JSON.stringify({ 'sub\u0000ject': 'x' })
    await expectNulRefused(
      await app.request('/api/v1/tickets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: key }),
    )
  })

  test('in a form body', async () => {
    // A route that takes forms (a JSON route answers a form with 415 before reading it).
    const body = new URLSearchParams({ CallSid: 'CA\u0000' }).toString()
    await expectNulRefused(
      await app.request('/api/v1/integrations/twilio/voice-status', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    )
  })

  test('an escaped backslash before u0000 is no NUL: the body goes on to the route', async () => {
    const body = JSON.stringify({ subject: 'path C:\\u0000', description: 'x' })
    const response = await app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    })
    expect(response.status).toBe(201)
  })
})

describe('the authorization server answers NUL in its own protocols', () => {
  test('/oauth2/token: an RFC 6749 invalid_request, not our error shape', async () => {
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'ocl_\u0000' }).toString()
    const response = await app.request('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(response.status).toBe(400)
    expect(await json(response)).toMatchObject({ error: 'invalid_request' })
  })

  test('/oauth2/auth: an HTML page, never a redirect', async () => {
    const response = await app.request('/oauth2/auth?client_id=ocl_%00&redirect_uri=https%3A%2F%2Fa.example%2Fcb&response_type=code')
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    expect(response.headers.get('location')).toBeNull()
  })
})
