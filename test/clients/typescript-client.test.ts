// The TypeScript client (clients/typescript) drives the real app: its requests, pages and typed error bodies.
import { afterAll, describe, expect, test } from 'bun:test'
import { type ApiError, createSwitchboardClient, type SwitchboardClient } from '../../clients/typescript/src/index.ts'
import { makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

/** Every request goes through the whole app in-process, as over the network. */
async function viaApp(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const body = request.body === null ? undefined : await request.arrayBuffer()
  return app.request(url.pathname + url.search, { method: request.method, headers: request.headers, body })
}

const clientOf = (token?: string): SwitchboardClient => createSwitchboardClient({ baseUrl: 'http://localhost/', token, fetch: viaApp })
const client = clientOf(users.admin.accessToken)

/** The typed body of an error that is not a 429 (which has no request_id). */
function errorBody(error: ApiError | undefined): Extract<ApiError, { request_id: string }> {
  if (error === undefined || 'retry_after' in error) throw new Error(`expected an error body, got ${JSON.stringify(error)}`)
  return error
}

async function createTicket(subject: string, tags: string[] = []) {
  const { data, error } = await client.POST('/api/v1/tickets', { body: { subject, priority: 'high', tags } })
  if (error) throw new Error(`create failed: ${JSON.stringify(error)}`)
  return data
}

describe('the TypeScript client', () => {
  test('GET /api/v1/me: the caller, with the Bearer token it was given', async () => {
    const { data, error, response } = await client.GET('/api/v1/me')
    expect(error).toBeUndefined()
    expect(response.status).toBe(200)
    expect(data).toMatchObject({ id: users.admin.user.id, email: users.admin.user.email, role: 'admin' })
    expect(data?.permissions).toContain('ticket:*')
  })

  test('POST /api/v1/tickets: a 201 with the new ticket', async () => {
    const { data, error, response } = await client.POST('/api/v1/tickets', {
      body: { subject: 'Printer out of toner', priority: 'high', tags: ['hardware'], custom_fields: { floor: 3 } },
    })
    expect(error).toBeUndefined()
    expect(response.status).toBe(201)
    expect(data).toMatchObject({ subject: 'Printer out of toner', priority: 'high', tags: ['hardware'], custom_fields: { floor: 3 } })
    expect(data?.id).toStartWith('tkt_')
  })

  test('GET /api/v1/tickets: pages of page_size, followed with next_page_token to the last', async () => {
    const made = []
    for (let i = 1; i <= 5; i++) made.push((await createTicket(`Paged ${i}`, ['paged'])).id)
    const seen: string[] = []
    const sizes: number[] = []
    let pageToken: string | undefined
    do {
      const { data, error } = await client.GET('/api/v1/tickets', {
        params: { query: { tag: 'paged', page_size: 2, page_token: pageToken, sort: 'number:asc' } },
      })
      if (error) throw new Error(`list failed: ${JSON.stringify(error)}`)
      seen.push(...data.tickets.map((ticket) => ticket.id))
      sizes.push(data.tickets.length)
      pageToken = data.next_page_token || undefined
    } while (pageToken && sizes.length < 10)
    expect(sizes).toEqual([2, 2, 1])
    expect(seen).toEqual(made)
  })

  test('a 404 is read as the typed error body', async () => {
    const { data, error, response } = await client.GET('/api/v1/tickets/{id}', {
      params: { path: { id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ' } },
    })
    expect(data).toBeUndefined()
    expect(response.status).toBe(404)
    const body = errorBody(error)
    expect(body.code).toBe('NOT_FOUND')
    expect(body.request_id).toBe(response.headers.get('x-request-id')!)
  })

  test('a validation error (400) is read as the typed error body, with its fields', async () => {
    const { error, response } = await client.POST('/api/v1/tickets', { body: { subject: '' } })
    expect(response.status).toBe(400)
    const body = errorBody(error)
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.errors?.map((e) => e.field)).toContain('subject')
  })

  test('without a token: 401 UNAUTHENTICATED', async () => {
    const { error, response } = await clientOf().GET('/api/v1/me')
    expect(response.status).toBe(401)
    expect(errorBody(error).code).toBe('UNAUTHENTICATED')
  })
})
