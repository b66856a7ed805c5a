// What Elysia prepares for each request of a route is inferred from the source of the route's hooks:
// one global hook that hands its whole context to a function makes every route copy the request's
// headers into an object and parse its cookies (request-state.ts). This checks the compiled handlers of
// the hottest reads, so that such a hook fails here and not only in a benchmark.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { auth } = (await seedOrganization(app)).users.admin

type Compiled = { method: string; path: string; composed: ((c: unknown) => unknown) | null }
const compiledSource = (method: string, path: string) => {
  const history = (app.app as unknown as { router: { history: Compiled[] } }).router.history
  const route = history.find((r) => r.method === method && r.path === path)
  if (!route?.composed) throw new Error(`${method} ${path} is not compiled`)
  return route.composed.toString()
}

describe('compiled handlers of authenticated reads', () => {
  const ticket = { id: '' }
  test('the routes answer (which compiles them)', async () => {
    const created = await app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Compiled' }),
    })
    ticket.id = (await json<{ id: string }>(created)).id
    for (const path of ['/api/v1/tickets?page_size=5', `/api/v1/tickets/${ticket.id}`, '/api/v1/me'])
      expect((await app.request(path, { headers: auth })).status).toBe(200)
  })

  for (const [method, path] of [
    ['GET', '/api/v1/tickets'],
    ['GET', '/api/v1/tickets/:id'],
    ['GET', '/api/v1/me'],
    ['POST', '/api/v1/tickets'],
  ] as const) {
    test(`${method} ${path} neither copies the headers nor parses cookies`, () => {
      const source = compiledSource(method, path)
      // The handler is real: it runs the route's own handler.
      expect(source).toContain('handler(c)')
      expect(source).not.toContain('parseCookie(')
      expect(source).not.toContain('headers.toJSON()')
    })
  }
})
