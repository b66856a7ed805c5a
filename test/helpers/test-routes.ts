// Routes that exist only in tests: they give the platform plugins a body to parse, a schema to
// violate and a failure to render, since the platform itself has no business routes yet.
import { t } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { TestApp } from './app.ts'

export const EchoBody = t.Object({
  name: t.String({ minLength: 1 }),
  age: Type.Integer({ minimum: 0 }),
  nested: t.Object({ tags: t.Array(t.String()) }),
})

export function addTestRoutes(testApp: TestApp) {
  testApp.app
    .post('/test/echo', ({ body }) => body, { body: EchoBody })
    .get('/test/items/:id', ({ params }) => ({ id: params.id }))
    .get('/test/query', ({ query }) => query, {
      query: t.Object({ page_size: t.Optional(t.Integer({ minimum: 1, maximum: 100, 'x-field': 'page_size' })) }),
    })
    .get('/test/boom', () => {
      throw new Error('the disk caught fire')
    })
    .get('/test/bad-response', () => ({ wrong: 1 }) as unknown as { right: string }, { response: { 200: t.Object({ right: t.String() }) } })
    .get('/test/slow', async () => {
      await Bun.sleep(400)
      return { done: true }
    })
  return testApp
}
