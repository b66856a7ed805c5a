// A list (or an export) refuses a query parameter it does not know, naming it and the ones it knows:
// Elysia would drop it, and a misspelled filter would answer unfiltered data. Other routes keep theirs.
import { afterAll, describe, expect, test } from 'bun:test'
import { isListQuery } from '../../src/http/list.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const auth = acme.users.supervisor.auth

const TICKET_PARAMETERS =
  'status, priority, assignee_id, contact_id, tag, created_after, created_before, page_size, page_token, sort, include_total'

/** The error body a user sees, with the request id checked against the header. */
async function errorOf(response: Response): Promise<Record<string, unknown>> {
  const body = await json(response)
  expect(body.request_id).toBe(response.headers.get('x-request-id'))
  const { request_id: _, ...rest } = body
  return { status: response.status, ...rest }
}

describe('a list given a parameter it does not know', () => {
  test('GET /api/v1/tickets?limit=20 is 400 naming limit and the parameters of the list', async () => {
    expect(await errorOf(await app.request('/api/v1/tickets?limit=20', { headers: auth }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Unknown query parameter: limit',
      errors: [{ field: 'limit', message: `is not a parameter of this list; known: ${TICKET_PARAMETERS}` }],
    })
  })

  test('a misspelled filter beside good ones: each unknown one named once, in the order sent', async () => {
    const response = await app.request('/api/v1/tickets?status=open&stauts=open&page_size=5&Priority=high&stauts=new', { headers: auth })
    const body = await errorOf(response)
    expect(body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Unknown query parameters: stauts, Priority' })
    expect((body.errors as { field: string }[]).map((e) => e.field)).toEqual(['stauts', 'Priority'])
  })

  test('the unknown parameter is refused before the values of the known ones are checked', async () => {
    const body = await errorOf(await app.request('/api/v1/tickets?page_size=0&limit=20', { headers: auth }))
    expect(body.errors).toEqual([{ field: 'limit', message: `is not a parameter of this list; known: ${TICKET_PARAMETERS}` }])
  })

  test('known parameters, repeated or empty, still answer 200', async () => {
    for (const query of ['', '?', '?page_size=2&sort=created_at:asc&include_total=true', '?status=open&status=new', '?&page_size=3&'])
      expect((await app.request(`/api/v1/tickets${query}`, { headers: auth })).status, query).toBe(200)
  })

  test('HEAD is refused as GET is (no body)', async () => {
    const response = await app.request('/api/v1/tickets?limit=20', { method: 'HEAD', headers: auth })
    expect(response.status).toBe(400)
  })

  test('an access token in the URL still gets the authenticator 401 saying where it goes', async () => {
    const response = await app.request(`/api/v1/tickets?access_token=${acme.users.supervisor.accessToken}`)
    expect(await errorOf(response)).toMatchObject({ status: 401, code: 'TOKEN_INVALID' })
  })

  test('without any credential the 401 comes first; with a bad one the 400, as for any query check', async () => {
    expect(await errorOf(await app.request('/api/v1/tickets?limit=20'))).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    const badToken = await app.request('/api/v1/tickets?limit=20', { headers: { authorization: 'Bearer nope' } })
    expect(await errorOf(badToken)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Unknown query parameter: limit' })
  })

  test('an export (a whole list as CSV) refuses one too', async () => {
    const body = await errorOf(await app.request('/api/v1/contacts/export?stauts=active', { headers: auth }))
    expect(body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Unknown query parameter: stauts' })
    expect((body.errors as { message: string }[])[0]!.message).toStartWith('is not a parameter of this list; known: ')
    expect((body.errors as { message: string }[])[0]!.message).toEndWith(', sort')
  })

  test('every list and export route refuses an unknown parameter, listing the known ones', async () => {
    type Route = { method: string; path: string; hooks?: { query?: unknown } }
    const lists = (app.app as unknown as { getGlobalRoutes(): Route[] }).getGlobalRoutes().filter((r) => isListQuery(r.hooks?.query))
    expect(lists.length).toBeGreaterThan(20)
    const answers: Record<string, unknown> = {}
    for (const route of lists) {
      const path = route.path.replace(/:[^/]+/g, 'x_1')
      const response = await app.request(`${path}?limitt=20`, { method: route.method, headers: auth })
      const body = await json<{ code: string; errors?: { field: string; message: string }[] }>(response)
      const [error] = body.errors ?? []
      answers[`${route.method} ${route.path}`] = {
        status: response.status,
        field: error?.field,
        names: /known: .*\bsort\b/.test(error?.message ?? ''),
      }
    }
    for (const [route, answer] of Object.entries(answers)) expect(answer, route).toEqual({ status: 400, field: 'limitt', names: true })
  })
})

describe('routes that are not lists keep their behaviour', () => {
  test('a route with a query schema ignores an unknown parameter, as before', async () => {
    const response = await app.request('/api/v1/survey-responses/metrics?from=2026-01-01&utm_source=mail', { headers: auth })
    expect(response.status).toBe(200)
  })

  test('a route without a query schema ignores one too', async () => {
    expect((await app.request('/health?cache_buster=1')).status).toBe(200)
    expect((await app.request('/api/v1/surveys/settings?verbose=1', { headers: auth })).status).toBe(200)
  })
})
