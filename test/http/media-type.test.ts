// A route whose body is JSON answers a form or plain-text body with 415 before validating it; the routes
// that take forms (OAuth, Twilio, a survey's public page) and raw bytes (uploads) keep theirs.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const auth = acme.users.supervisor.auth

const JSON_415 = { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as JSON with Content-Type: application/json' }
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** The error body a user sees, with the request id checked against the header. */
async function errorOf(response: Response): Promise<Record<string, unknown>> {
  const body = await json(response)
  expect(body.request_id).toBe(response.headers.get('x-request-id'))
  const { request_id: _, ...rest } = body
  return { status: response.status, ...rest }
}

const ticketCount = async () =>
  (await json<{ total_count: number }>(await app.request('/api/v1/tickets?include_total=true', { headers: auth }))).total_count

describe('a JSON route given another type', () => {
  test('a form body (curl -d) is 415 naming JSON, not a validation failure, and creates nothing', async () => {
    const before = await ticketCount()
    const response = await app.request('/api/v1/tickets', { method: 'POST', headers: { ...auth, ...FORM }, body: 'subject=x' })
    expect(await errorOf(response)).toEqual({ status: 415, ...JSON_415 })
    expect(await ticketCount()).toBe(before)
  })

  test('a form whose fields would fit the schema is refused all the same: the ticket is unchanged', async () => {
    const created = await app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Printer' }),
    })
    expect(created.status).toBe(201)
    const { id } = await json<{ id: string }>(created)
    const response = await app.request(`/api/v1/tickets/${id}`, { method: 'PATCH', headers: { ...auth, ...FORM }, body: 'subject=Renamed' })
    expect(await errorOf(response)).toEqual({ status: 415, ...JSON_415 })
    const ticket = await json<{ subject: string }>(await app.request(`/api/v1/tickets/${id}`, { headers: auth }))
    expect(ticket.subject).toBe('Printer')
  })

  test('plain text and a charset parameter on the form type: 415 too', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded; charset=utf-8']) {
      const response = await app.request('/api/v1/tickets', {
        method: 'POST',
        headers: { ...auth, 'content-type': type },
        body: 'subject=x',
      })
      expect(await errorOf(response), type).toEqual({ status: 415, ...JSON_415 })
    }
  })

  test('JSON with a charset or a +json type is read as before', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const response = await app.request('/api/v1/tickets', {
        method: 'POST',
        headers: { ...auth, 'content-type': type },
        body: JSON.stringify({ subject: `Typed ${type}` }),
      })
      expect(response.status, type).toBe(201)
    }
  })

  test('the 415 comes before authentication, as a validation failure does', async () => {
    const response = await app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', ...FORM },
      body: 'subject=x',
    })
    expect(await errorOf(response)).toEqual({ status: 415, ...JSON_415 })
  })

  test('every route that declares a body schema refuses a form body with 415', async () => {
    type Route = { method: string; path: string; hooks?: { body?: unknown; query?: unknown } }
    const routes = (app.app as unknown as { getGlobalRoutes(): Route[] }).getGlobalRoutes().filter((r) => r.hooks?.body !== undefined)
    expect(routes.length).toBeGreaterThan(50)
    const answers: Record<string, unknown> = {}
    for (const route of routes) {
      const path = route.path.replace(/:[^/]+/g, 'x_1')
      const response = await app.request(path, { method: route.method, headers: { ...auth, ...FORM }, body: 'name=x' })
      const body = await json<{ code: string; message: string }>(response)
      // A route that also streams another type names both (recordings: JSON or the audio itself).
      answers[`${route.method} ${route.path}`] = {
        status: response.status,
        code: body.code,
        json: body.message.startsWith(JSON_415.message),
      }
    }
    for (const [route, answer] of Object.entries(answers)) expect(answer, route).toEqual({ status: 415, code: JSON_415.code, json: true })
  })

  test('an empty body of the form type is 415 too, rather than "subject" missing', async () => {
    const response = await app.request('/api/v1/tickets', { method: 'POST', headers: { ...auth, ...FORM }, body: '' })
    expect(await errorOf(response)).toEqual({ status: 415, ...JSON_415 })
  })
})

describe('routes that take other types keep working', () => {
  test('the OAuth token endpoint reads its form (its own error, not 415)', async () => {
    const response = await app.request('/oauth2/token', { method: 'POST', headers: FORM, body: 'grant_type=client_credentials' })
    expect(response.status).not.toBe(415)
    expect((await json(response)).error).toBeString()
  })

  test('the Twilio callback reads its form (a missing signature is 403, not 415)', async () => {
    const response = await app.request('/api/v1/integrations/twilio/voice-status', { method: 'POST', headers: FORM, body: 'CallSid=CA1' })
    expect(response.status).not.toBe(415)
  })

  test('a NUL in the form of a route that takes forms is still 400 (a JSON route answers 415 first)', async () => {
    const body = new URLSearchParams({ CallSid: 'CA\u0000' }).toString()
    const response = await app.request('/api/v1/integrations/twilio/voice-status', { method: 'POST', headers: FORM, body })
    expect(await errorOf(response)).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Text must not contain the NUL character (U+0000)',
    })
    const login = await app.request('/api/v1/auth/login', { method: 'POST', headers: FORM, body: `email=a%00%40b.test&password=x` })
    expect(await errorOf(login)).toEqual({ status: 415, ...JSON_415 })
  })

  test('an upload takes its raw bytes', async () => {
    const response = await app.request('/api/v1/uploads?purpose=attachment&filename=a.txt', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hello',
    })
    expect(response.status).toBe(201)
  })
})
