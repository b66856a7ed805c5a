// Issue 27 item 1: a request without a credential never reaches a validator. Every protected route that
// takes a body answers 401 to a malformed or absurdly nested body sent without a credential (Elysia
// validates before a route's own authentication runs, so the platform refuses it before reading the body);
// public routes and authenticated callers get 400 VALIDATION_FAILED for a body nested past 64 levels.
import { afterAll, describe, expect, test } from 'bun:test'
import { routeEntry } from '../../src/app.ts'
import { MAX_JSON_DEPTH } from '../../src/lib/json-depth.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

/** `{"<field>":{"a":{"a":…1…}}}`, `depth` objects deep in all. */
export function nestedBody(depth: number, field = 'email'): string {
  return `{"${field}":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}`
}

const protectedRoutes = app.app.routes
  .map(routeEntry)
  .filter((route) => route.authenticated && route.method !== 'GET' && route.method !== 'HEAD')
  .map((route) => ({ ...route, real: route.path.replace(/:[^/]+/g, 'x_missing') }))

const post = (path: string, body: string, headers: Record<string, string> = {}, method = 'POST') =>
  app.request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body })

describe('a protected route without a credential answers 401 before reading its body', () => {
  test('there are such routes, of both kinds', () => {
    expect(protectedRoutes.length).toBeGreaterThan(50)
    expect(protectedRoutes.some((route) => route.scheme === 'operator')).toBe(true)
  })

  // A route that streams a body of another type (a CSV import, a file) refuses JSON up front with 415: before
  // reading it too.
  test('every one: malformed JSON, a 20,000-deep body, and a body of the wrong shape are all 401', async () => {
    for (const route of protectedRoutes) {
      for (const body of ['{not json', nestedBody(20_000, 'name'), '{"unexpected":[1,2,3]}']) {
        const response = await post(route.real, body, {}, route.method)
        const answer = await json(response)
        const seen = { route: `${route.method} ${route.path}`, status: response.status, code: answer.code }
        if (seen.status === 415) {
          expect(seen.code).toBe('UNSUPPORTED_MEDIA_TYPE')
          continue
        }
        expect(seen).toEqual({ route: seen.route, status: 401, code: 'UNAUTHENTICATED' })
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="switchboard"')
        expect(answer.message).toBe(
          route.scheme === 'operator'
            ? 'An operator token is required (Authorization: Bearer sbo_…)'
            : 'Send an access token: Authorization: Bearer <token>',
        )
      }
    }
  })

  test('a route that is also public for its method is not refused up front (the survey link)', async () => {
    const response = await post('/s/not-a-real-token', '{"score":5}')
    expect(response.status).not.toBe(401)
  })
})

describe(`a JSON body nested deeper than ${MAX_JSON_DEPTH} levels is 400 VALIDATION_FAILED before validation`, () => {
  const refusal = {
    code: 'VALIDATION_FAILED',
    message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels`,
    errors: [{ field: 'body', message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} deep` }],
  }

  test('on a public route (sign-in): 20,000 and 40,000 deep', async () => {
    for (const depth of [20_000, 40_000]) {
      const response = await post('/api/v1/auth/login', nestedBody(depth))
      expect(response.status).toBe(400)
      expect(await json(response)).toMatchObject(refusal)
    }
  })

  test('arrays count as objects do', async () => {
    const body = `{"email":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`
    const response = await post('/api/v1/auth/login', body)
    expect(await json(response)).toMatchObject(refusal)
  })

  test('for an authenticated caller too (custom fields of a contact)', async () => {
    const response = await post('/api/v1/contacts', nestedBody(20_000, 'custom_fields'), users.admin.auth)
    expect(response.status).toBe(400)
    expect(await json(response)).toMatchObject(refusal)
  })

  test(`exactly ${MAX_JSON_DEPTH} levels goes on to the route's own validation`, async () => {
    const response = await post('/api/v1/contacts', nestedBody(MAX_JSON_DEPTH, 'custom_fields'), users.admin.auth)
    expect(response.status).toBe(400)
    const answer = await json<{ errors: { field: string }[] }>(response)
    expect(answer.errors.map((e) => e.field)).not.toContain('body')
    expect(answer.errors.map((e) => e.field)).toContain('custom_fields.a')
  })

  test('brackets inside strings do not count', async () => {
    const body = JSON.stringify({ subject: 'Brackets', description: '["\\'.repeat(100) + '{'.repeat(1000) })
    const response = await post('/api/v1/tickets', body, users.admin.auth)
    expect(response.status).toBe(201)
  })
})
