// Who sees which tickets: agents their own and the unassigned ones, other roles all of the organization, viewers read-only, and other organizations nothing.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const { users } = acme

interface Ticket {
  id: string
  subject: string
  assignee_id: string | null
}
interface ErrorBody {
  code: string
  message: string
  request_id: string
}
interface TicketList {
  tickets: Ticket[]
  next_page_token: string
  total_count?: number
}

type Auth = Record<string, string>
const send = (method: string, path: string, auth: Auth, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const create = async (body: Record<string, unknown>, auth: Auth = users.admin.auth): Promise<Ticket> => {
  const response = await send('POST', '/api/v1/tickets', auth, body)
  expect(response.status).toBe(201)
  return json<Ticket>(response)
}
const listIds = async (auth: Auth, query = '') => {
  const response = await send('GET', `/api/v1/tickets?page_size=100&include_total=true${query}`, auth)
  expect(response.status).toBe(200)
  const page = await json<TicketList>(response)
  expect(page.next_page_token).toBe('')
  return { ids: page.tickets.map((t) => t.id).sort(), total: page.total_count }
}
const withoutRequestId = async (response: Response) => ({ ...(await json<ErrorBody>(response)), request_id: undefined })

// A second agent, made by the admin and signed in through the login endpoint.
const created = await send('POST', '/api/v1/users', users.admin.auth, {
  email: 'second.agent@acme.test',
  name: 'Second Agent',
  password: 'second-agent-pass',
  role: 'agent',
})
expect(created.status).toBe(201)
const otherAgentId = (await json<{ id: string }>(created)).id
const login = await app.request('/api/v1/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'second.agent@acme.test', password: 'second-agent-pass' }),
})
expect(login.status).toBe(200)
const otherAgent = { authorization: `Bearer ${(await json<{ access_token: string }>(login)).access_token}` }

const agent = users.agent
const mine = await create({ subject: 'Mine', assignee_id: agent.user.id })
const theirs = await create({ subject: 'Theirs', assignee_id: otherAgentId })
const unassigned = await create({ subject: "Nobody's" })
const supervisors = await create({ subject: "The supervisor's", assignee_id: users.supervisor.user.id })
const foreign = await create({ subject: 'Globex only' }, globex.users.admin.auth)
const missingId = 'tkt_00000000000000000000000000'

describe('an agent', () => {
  test('lists exactly its own and the unassigned tickets', async () => {
    expect(await listIds(agent.auth)).toEqual({ ids: [mine.id, unassigned.id].sort(), total: 2 })
    expect(await listIds(otherAgent)).toEqual({ ids: [theirs.id, unassigned.id].sort(), total: 2 })
  })

  test("a filter on another agent's tickets finds nothing", async () => {
    expect(await listIds(agent.auth, `&assignee_id=${otherAgentId}`)).toEqual({ ids: [], total: 0 })
    expect(await listIds(agent.auth, `&assignee_id=${agent.user.id}`)).toEqual({ ids: [mine.id], total: 1 })
    expect(await listIds(agent.auth, '&assignee_id=none')).toEqual({ ids: [unassigned.id], total: 1 })
  })

  test.each([
    ['its own', () => mine],
    ['an unassigned', () => unassigned],
  ])('can read, change, comment on and assign %s ticket', async (_name, ticketOf) => {
    const ticket = ticketOf()
    expect((await send('GET', `/api/v1/tickets/${ticket.id}`, agent.auth)).status).toBe(200)
    const patched = await send('PATCH', `/api/v1/tickets/${ticket.id}`, agent.auth, { priority: 'high' })
    expect(patched.status).toBe(200)
    expect((await json<{ priority: string }>(patched)).priority).toBe('high')
    expect((await send('POST', `/api/v1/tickets/${ticket.id}/comments`, agent.auth, { body: 'Looking' })).status).toBe(201)
    expect((await send('GET', `/api/v1/tickets/${ticket.id}/comments`, agent.auth)).status).toBe(200)
    const original = ticket.assignee_id
    const toggled = original === null ? agent.user.id : null
    const first = await send('POST', `/api/v1/tickets/${ticket.id}/assign`, agent.auth, { assignee_id: toggled })
    expect(first.status).toBe(200)
    expect((await json<Ticket>(first)).assignee_id).toBe(toggled)
    const back = await send('POST', `/api/v1/tickets/${ticket.id}/assign`, agent.auth, { assignee_id: original })
    expect(back.status).toBe(200)
    expect((await json<Ticket>(back)).assignee_id).toBe(original)
  })

  test.each([
    ['GET', '', undefined],
    ['PATCH', '', { priority: 'low' }],
    ['POST', '/assign', { assignee_id: null }],
    ['POST', '/assign', { assignee_id: users.agent.user.id }],
    ['POST', '/comments', { body: 'Sneaky' }],
    ['GET', '/comments', undefined],
  ] as const)("%s {id}%s on another agent's ticket: 404 like a ticket that does not exist", async (method, suffix, body) => {
    const hidden = await send(method, `/api/v1/tickets/${theirs.id}${suffix}`, agent.auth, body)
    const missing = await send(method, `/api/v1/tickets/${missingId}${suffix}`, agent.auth, body)
    expect([hidden.status, missing.status]).toEqual([404, 404])
    const hiddenBody = await withoutRequestId(hidden)
    expect(hiddenBody.code).toBe('NOT_FOUND')
    expect(hiddenBody).toEqual(await withoutRequestId(missing))
  })

  test('nothing changed on the hidden ticket', async () => {
    const seen = await json<Ticket & { priority: string }>(await send('GET', `/api/v1/tickets/${theirs.id}`, users.supervisor.auth))
    expect([seen.assignee_id, seen.priority]).toEqual([otherAgentId, 'normal'])
    const comments = await json<{ comments: unknown[] }>(await send('GET', `/api/v1/tickets/${theirs.id}/comments`, users.supervisor.auth))
    expect(comments.comments).toEqual([])
  })

  test('once it gives an unassigned ticket to another agent, it can no longer see it', async () => {
    const handed = await create({ subject: 'Hand me over' }, agent.auth)
    expect((await send('GET', `/api/v1/tickets/${handed.id}`, agent.auth)).status).toBe(200)
    const assigned = await send('POST', `/api/v1/tickets/${handed.id}/assign`, agent.auth, { assignee_id: otherAgentId })
    expect(assigned.status).toBe(200)
    expect((await json<Ticket>(assigned)).assignee_id).toBe(otherAgentId)
    await expectNotFound(await send('GET', `/api/v1/tickets/${handed.id}`, agent.auth))
    await expectNotFound(await send('POST', `/api/v1/tickets/${handed.id}/assign`, agent.auth, { assignee_id: agent.user.id }))
    expect((await listIds(agent.auth)).ids).not.toContain(handed.id)
    expect((await send('GET', `/api/v1/tickets/${handed.id}`, otherAgent)).status).toBe(200)
    expect((await listIds(otherAgent)).ids).toContain(handed.id)
  })
})

async function expectNotFound(response: Response) {
  expect(response.status).toBe(404)
  expect((await json<ErrorBody>(response)).code).toBe('NOT_FOUND')
}

describe('supervisor, admin, super_admin and viewer', () => {
  test.each(['supervisor', 'admin', 'super_admin', 'viewer'] as const)('%s sees every ticket of the organization', async (role) => {
    const auth = users[role].auth
    const all = await listIds(users.super_admin.auth)
    expect(all.ids).toEqual(expect.arrayContaining([mine.id, theirs.id, unassigned.id, supervisors.id]))
    expect(await listIds(auth)).toEqual(all)
    expect(all.total).toBe(all.ids.length)
    for (const ticket of [mine, theirs, unassigned, supervisors]) {
      expect((await send('GET', `/api/v1/tickets/${ticket.id}`, auth)).status).toBe(200)
      expect((await send('GET', `/api/v1/tickets/${ticket.id}/comments`, auth)).status).toBe(200)
    }
  })

  test.each([
    ['create', 'POST', '', { subject: 'Nope' }],
    ['patch', 'PATCH', '/{id}', { priority: 'urgent' }],
    ['delete', 'DELETE', '/{id}', undefined],
    ['assign', 'POST', '/{id}/assign', { assignee_id: null }],
    ['comment', 'POST', '/{id}/comments', { body: 'Nope' }],
  ] as const)('a viewer may not %s: 403 INSUFFICIENT_PERMISSIONS', async (_name, method, path, body) => {
    const response = await send(method, `/api/v1/tickets${path.replace('{id}', unassigned.id)}`, users.viewer.auth, body)
    expect(response.status).toBe(403)
    expect((await json<ErrorBody>(response)).code).toBe('INSUFFICIENT_PERMISSIONS')
    expect((await send('GET', `/api/v1/tickets/${unassigned.id}`, users.viewer.auth)).status).toBe(200)
  })
})

describe("another organization's tickets", () => {
  const roles = ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const
  const requests = [
    ['GET', '', undefined],
    ['PATCH', '', { priority: 'low' }],
    ['POST', '/assign', { assignee_id: null }],
    ['POST', '/comments', { body: 'Hello from acme' }],
    ['GET', '/comments', undefined],
    ['DELETE', '', undefined],
  ] as const
  // Agents and viewers lack the permission for some of these, and are refused before any lookup.
  const permitted: Record<(typeof roles)[number], readonly string[]> = {
    super_admin: ['GET', 'GET/comments', 'PATCH', 'POST/assign', 'POST/comments', 'DELETE'],
    admin: ['GET', 'GET/comments', 'PATCH', 'POST/assign', 'POST/comments', 'DELETE'],
    supervisor: ['GET', 'GET/comments', 'PATCH', 'POST/assign', 'POST/comments', 'DELETE'],
    agent: ['GET', 'GET/comments', 'PATCH', 'POST/assign', 'POST/comments'],
    viewer: ['GET', 'GET/comments'],
  }

  test.each(roles)('are 404 to the %s of acme, exactly like a ticket that does not exist', async (role) => {
    const auth = users[role].auth
    expect(foreign.id).toMatch(/^tkt_[0-9A-Z]{26}$/)
    for (const [method, suffix, body] of requests) {
      const response = await send(method, `/api/v1/tickets/${foreign.id}${suffix}`, auth, body)
      if (!permitted[role].includes(`${method}${suffix}`)) {
        expect(response.status).toBe(403)
        continue
      }
      const missing = await send(method, `/api/v1/tickets/${missingId}${suffix}`, auth, body)
      expect([method, suffix, response.status]).toEqual([method, suffix, 404])
      expect(await withoutRequestId(response)).toEqual(await withoutRequestId(missing))
    }
    expect((await listIds(auth)).ids).not.toContain(foreign.id)
  })

  test('are untouched, and globex lists only its own', async () => {
    const seen = await send('GET', `/api/v1/tickets/${foreign.id}`, globex.users.agent.auth)
    expect(seen.status).toBe(200)
    expect(await json(seen)).toMatchObject({ id: foreign.id, subject: 'Globex only', priority: 'normal', assignee_id: null })
    expect(await listIds(globex.users.super_admin.auth)).toEqual({ ids: [foreign.id], total: 1 })
    const comments = await json<{ comments: unknown[] }>(
      await send('GET', `/api/v1/tickets/${foreign.id}/comments`, globex.users.admin.auth),
    )
    expect(comments.comments).toEqual([])
  })
})

describe('DELETE /api/v1/tickets/{id}', () => {
  test('an agent lacks ticket:delete, even on its own ticket: 403', async () => {
    for (const ticket of [mine, unassigned]) {
      const response = await send('DELETE', `/api/v1/tickets/${ticket.id}`, agent.auth)
      expect(response.status).toBe(403)
      expect((await json<ErrorBody>(response)).code).toBe('INSUFFICIENT_PERMISSIONS')
      expect((await send('GET', `/api/v1/tickets/${ticket.id}`, agent.auth)).status).toBe(200)
    }
  })

  test('a supervisor deletes: 204, then the ticket and its comments are gone', async () => {
    const doomed = await create({ subject: 'Doomed', assignee_id: agent.user.id, tags: ['doomed'] }, agent.auth)
    for (const body of ['one', 'two'])
      expect((await send('POST', `/api/v1/tickets/${doomed.id}/comments`, agent.auth, { body })).status).toBe(201)
    const response = await send('DELETE', `/api/v1/tickets/${doomed.id}`, users.supervisor.auth)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    await expectNotFound(await send('GET', `/api/v1/tickets/${doomed.id}`, users.supervisor.auth))
    await expectNotFound(await send('GET', `/api/v1/tickets/${doomed.id}/comments`, users.supervisor.auth))
    await expectNotFound(await send('GET', `/api/v1/tickets/${doomed.id}`, agent.auth))
    await expectNotFound(await send('DELETE', `/api/v1/tickets/${doomed.id}`, users.supervisor.auth))
    expect((await listIds(users.supervisor.auth, '&tag=doomed')).ids).toEqual([])
    const left = async (table: string) =>
      (await app.context.db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ticket_id = ?`, [doomed.id]))!.n
    expect([await left('ticket_comments'), await left('ticket_tags')]).toEqual([0, 0])
  })
})
