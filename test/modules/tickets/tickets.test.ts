// Tickets through the API: create and its validation, the status lifecycle, PATCH semantics, assign, comments, list filters and sorts, and the ticket.* events.
import { afterAll, describe, expect, test } from 'bun:test'
import { ROLE_GRANTS } from '../../../src/modules/access/permissions.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const { users } = acme

interface Ticket {
  id: string
  number: number
  subject: string
  description: string
  status: string
  priority: string
  type: string | null
  channel: string
  requester: { name: string; email: string } | null
  contact_id: string | null
  assignee_id: string | null
  tags: string[]
  custom_fields: Record<string, string | number | boolean>
  upload_ids: string[]
  created_at: string
  updated_at: string
  solved_at: string | null
  closed_at: string | null
}
interface Comment {
  id: string
  ticket_id: string
  author_id: string
  body: string
  public: boolean
  upload_ids: string[]
  created_at: string
}
interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}
interface TicketEvent {
  id: string
  type: string
  created_at: string
  organization_id: string
  data: { ticket: Ticket; changed?: string[]; previous_assignee_id?: string | null; comment?: Comment }
}

type Auth = Record<string, string>
const send = (method: string, path: string, auth: Auth, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const iso = () => new Date(app.clock.now()).toISOString()

const create = async (body: Record<string, unknown> = {}, auth: Auth = users.admin.auth): Promise<Ticket> => {
  const response = await send('POST', '/api/v1/tickets', auth, { subject: 'Printer on fire', ...body })
  expect(response.status).toBe(201)
  return json<Ticket>(response)
}
const patch = (id: string, body: unknown, auth: Auth = users.admin.auth) => send('PATCH', `/api/v1/tickets/${id}`, auth, body)
const assign = (id: string, assigneeId: string | null, auth: Auth = users.admin.auth) =>
  send('POST', `/api/v1/tickets/${id}/assign`, auth, { assignee_id: assigneeId })
const comment = (id: string, body: Record<string, unknown>, auth: Auth = users.admin.auth) =>
  send('POST', `/api/v1/tickets/${id}/comments`, auth, body)
const getTicket = async (id: string, auth: Auth = users.admin.auth) => json<Ticket>(await send('GET', `/api/v1/tickets/${id}`, auth))

/** A ticket brought to `status` through allowed PATCHes only. */
const PATHS: Record<string, string[]> = {
  new: [],
  open: ['open'],
  pending: ['pending'],
  on_hold: ['on_hold'],
  solved: ['solved'],
  closed: ['solved', 'closed'],
}
const ticketIn = async (status: string, body: Record<string, unknown> = {}): Promise<Ticket> => {
  let ticket = await create(body)
  for (const step of PATHS[status]!) {
    const response = await patch(ticket.id, { status: step })
    expect(response.status).toBe(200)
    ticket = await json<Ticket>(response)
  }
  expect(ticket.status).toBe(status)
  return ticket
}

/** The events of one ticket, in the order they were written. */
const eventsOf = async (ticketId: string): Promise<TicketEvent[]> =>
  (await app.context.db.raw.all<{ body: string }>('SELECT body FROM events ORDER BY id'))
    .map((row) => JSON.parse(row.body) as TicketEvent)
    .filter((event) => event.type.startsWith('ticket.') && event.data.ticket.id === ticketId)

const expectError = async (response: Response, status: number, code: string, field?: string): Promise<ErrorBody> => {
  expect(response.status).toBe(status)
  const body = await json<ErrorBody>(response)
  expect(body.code).toBe(code)
  if (field !== undefined) expect(body.errors?.map((e) => e.field)).toContain(field)
  return body
}

let userCounter = 0
const newUser = async (role = 'agent') => {
  const response = await send('POST', '/api/v1/users', users.admin.auth, {
    email: `member${++userCounter}@acme.test`,
    name: `Member ${userCounter}`,
    password: 'password-123',
    role,
  })
  expect(response.status).toBe(201)
  return json<{ id: string }>(response)
}
const disabledUser = await newUser()
expect((await send('DELETE', `/api/v1/users/${disabledUser.id}`, users.admin.auth)).status).toBe(204)

describe('POST /api/v1/tickets', () => {
  test('201 with exactly the ticket fields and the defaults', async () => {
    const response = await send('POST', '/api/v1/tickets', users.agent.auth, { subject: '  Printer on fire  ' })
    expect(response.status).toBe(201)
    const ticket = await json<Ticket>(response)
    expect(Object.keys(ticket)).toEqual([
      'id',
      'number',
      'subject',
      'description',
      'status',
      'priority',
      'type',
      'channel',
      'requester',
      'contact_id',
      'assignee_id',
      'tags',
      'custom_fields',
      'upload_ids',
      'created_at',
      'updated_at',
      'solved_at',
      'closed_at',
    ])
    expect(ticket.id).toMatch(/^tkt_[0-9A-Z]{26}$/)
    expect(ticket).toEqual({
      id: ticket.id,
      number: ticket.number,
      subject: 'Printer on fire',
      description: '',
      status: 'new',
      priority: 'normal',
      type: null,
      channel: 'api',
      requester: null,
      contact_id: null,
      assignee_id: null,
      tags: [],
      custom_fields: {},
      upload_ids: [],
      created_at: iso(),
      updated_at: iso(),
      solved_at: null,
      closed_at: null,
    })
    expect(await getTicket(ticket.id)).toEqual(ticket)
  })

  test('every field given is kept; tags lowercased and de-duplicated in order; the requester e-mail lowercased', async () => {
    const ticket = await create({
      description: 'Smoke everywhere',
      status: 'pending',
      priority: 'urgent',
      type: 'incident',
      channel: 'phone',
      requester: { name: 'Ada Lovelace', email: 'Ada.Lovelace@EXAMPLE.com' },
      assignee_id: users.agent.user.id,
      tags: ['Printer', 'fire', 'PRINTER', 'Urgent', 'fire'],
      custom_fields: { floor: 3, building: 'B', insured: true },
    })
    expect(ticket).toMatchObject({
      description: 'Smoke everywhere',
      status: 'pending',
      priority: 'urgent',
      type: 'incident',
      channel: 'phone',
      requester: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' },
      assignee_id: users.agent.user.id,
      tags: ['printer', 'fire', 'urgent'],
      custom_fields: { floor: 3, building: 'B', insured: true },
    })
  })

  test('numbers run 1, 2, 3… per organization, independently, and are never reused after a delete', async () => {
    const one = await seedOrganization(app, 'numbers-one')
    const two = await seedOrganization(app, 'numbers-two')
    const numberOf = async (auth: Auth) => (await create({}, auth)).number
    expect([await numberOf(one.users.agent.auth), await numberOf(one.users.agent.auth)]).toEqual([1, 2])
    expect(await numberOf(two.users.agent.auth)).toBe(1)
    const third = await create({}, one.users.admin.auth)
    expect(third.number).toBe(3)
    expect(await numberOf(two.users.admin.auth)).toBe(2)

    const list = await json<{ tickets: Ticket[] }>(await send('GET', '/api/v1/tickets?sort=number:asc', one.users.admin.auth))
    const second = list.tickets.find((t) => t.number === 2)!
    expect((await send('DELETE', `/api/v1/tickets/${second.id}`, one.users.admin.auth)).status).toBe(204)
    expect(await numberOf(one.users.admin.auth)).toBe(4)
    expect(await numberOf(one.users.admin.auth)).toBe(5)
    // Delete the newest: its number is not handed out again either.
    const newest = await create({}, one.users.admin.auth)
    expect(newest.number).toBe(6)
    expect((await send('DELETE', `/api/v1/tickets/${newest.id}`, one.users.admin.auth)).status).toBe(204)
    expect(await numberOf(one.users.admin.auth)).toBe(7)
  })

  const otherOrgUser = globex.users.agent.user.id
  const heavyFields = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`field${i}`, 'x'.repeat(1000)]))
  const manyFields = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`field${i}`, i]))
  const manyTags = Array.from({ length: 21 }, (_, i) => `tag${i}`)
  const invalid: [string, Record<string, unknown>, string][] = [
    ['an empty subject', { subject: '' }, 'subject'],
    ['a whitespace-only subject', { subject: '   \t ' }, 'subject'],
    ['a subject of 201 characters', { subject: 'x'.repeat(201) }, 'subject'],
    ['status solved at creation', { status: 'solved' }, 'status'],
    ['status closed at creation', { status: 'closed' }, 'status'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['an unknown priority', { priority: 'extreme' }, 'priority'],
    ['an unknown type', { type: 'bug' }, 'type'],
    ['an unknown channel', { channel: 'fax' }, 'channel'],
    ['a tag with a space', { tags: ['ok', 'not ok'] }, 'tags.1'],
    ['a tag with a comma', { tags: ['a,b'] }, 'tags.0'],
    ['21 tags', { tags: manyTags }, 'tags'],
    ['a custom field holding an object', { custom_fields: { nested: { a: 1 } } }, 'custom_fields.nested'],
    ['a custom field holding an array', { custom_fields: { list: [1, 2] } }, 'custom_fields.list'],
    ['51 custom fields', { custom_fields: manyFields }, 'custom_fields'],
    ['custom fields over 8 KiB as JSON (checked by the service)', { custom_fields: heavyFields }, 'custom_fields'],
    ['a requester without an e-mail', { requester: { name: 'Ada' } }, 'requester.email'],
    ['a requester with a malformed e-mail', { requester: { name: 'Ada', email: 'not-an-email' } }, 'requester.email'],
    ['an assignee of another organization', { assignee_id: otherOrgUser }, 'assignee_id'],
    ['a disabled assignee', { assignee_id: disabledUser.id }, 'assignee_id'],
    ['an assignee that does not exist', { assignee_id: 'usr_00000000000000000000000000' }, 'assignee_id'],
  ]
  test.each(invalid)('%s: 400 VALIDATION_FAILED naming the field', async (_name, body, field) => {
    const response = await send('POST', '/api/v1/tickets', users.admin.auth, { subject: 'Valid subject', ...body })
    await expectError(response, 400, 'VALIDATION_FAILED', field)
  })

  test('custom fields of exactly 50 keys, or just under 8 KiB, are accepted', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, i]))
    expect((await create({ custom_fields: fifty })).custom_fields).toEqual(fifty)
    const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`field${i}`, 'x'.repeat(1000)]))
    expect((await create({ custom_fields: eight })).custom_fields).toEqual(eight)
  })

  // Regression: the Record's key pattern alone did not refuse other keys, nor check their values.
  test('a custom field key with a space (or any key outside ^[A-Za-z0-9_.-]{1,64}$): 400 naming custom_fields', async () => {
    for (const fields of [{ 'bad key': 1 }, { 'bad key': { nested: true } }, { ['k'.repeat(65)]: 1 }, { '': 1 }]) {
      const response = await send('POST', '/api/v1/tickets', users.admin.auth, { subject: 'Valid subject', custom_fields: fields })
      expect(response.status).toBe(400)
      const body = await json<ErrorBody>(response)
      expect(body.code).toBe('VALIDATION_FAILED')
      expect(body.errors?.[0]?.field).toStartWith('custom_fields')
    }
  })

  test('a requester name of only white space: 400 naming requester.name', async () => {
    const response = await send('POST', '/api/v1/tickets', users.admin.auth, {
      subject: 'Valid subject',
      requester: { name: '   ', email: 'a@b.co' },
    })
    await expectError(response, 400, 'VALIDATION_FAILED', 'requester.name')
  })

  test('an assignee that is no user ("", another organization\'s, unknown): 400 naming assignee_id, no ticket made (issue 27: "" was a 500)', async () => {
    const count = async () =>
      (await json<{ total_count: number }>(await send('GET', '/api/v1/tickets?include_total=true', users.admin.auth))).total_count
    const before = await count()
    for (const assignee_id of ['', globex.users.agent.user.id, 'usr_00000000000000000000000000']) {
      const response = await send('POST', '/api/v1/tickets', users.admin.auth, { subject: 'Valid subject', assignee_id })
      await expectError(response, 400, 'VALIDATION_FAILED', 'assignee_id')
    }
    expect(await count()).toBe(before)
  })

  test('creating with an assignee needs ticket:assign; without one it does not', async () => {
    const grants = ROLE_GRANTS.agent
    ROLE_GRANTS.agent = grants.filter((grant) => grant !== 'ticket:assign')
    try {
      const refused = await send('POST', '/api/v1/tickets', users.agent.auth, { subject: 'Mine', assignee_id: users.agent.user.id })
      await expectError(refused, 403, 'INSUFFICIENT_PERMISSIONS')
      expect((await send('POST', '/api/v1/tickets', users.agent.auth, { subject: 'Nobody' })).status).toBe(201)
      expect((await send('POST', '/api/v1/tickets', users.agent.auth, { subject: 'Nobody', assignee_id: null })).status).toBe(201)
    } finally {
      ROLE_GRANTS.agent = grants
    }
    expect((await send('POST', '/api/v1/tickets', users.agent.auth, { subject: 'Mine', assignee_id: users.agent.user.id })).status).toBe(
      201,
    )
  })
})

describe('the status lifecycle', () => {
  const STATUSES = ['new', 'open', 'pending', 'on_hold', 'solved', 'closed']
  const ALLOWED: Record<string, string[]> = {
    new: ['open', 'pending', 'on_hold', 'solved'],
    open: ['pending', 'on_hold', 'solved'],
    pending: ['open', 'on_hold', 'solved'],
    on_hold: ['open', 'pending', 'solved'],
    solved: ['open', 'closed'],
    closed: [],
  }
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const))
  test.each(pairs)('%s -> %s', async (from, to) => {
    const ticket = await ticketIn(from)
    const response = await patch(ticket.id, { status: to })
    const allowed = ALLOWED[from]!.includes(to) || (to === from && from !== 'closed')
    if (allowed) {
      expect(response.status).toBe(200)
      expect((await json<Ticket>(response)).status).toBe(to)
    } else {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      // Both states named: the one it is in, and the one asked for (or, asked for its own, that it cannot change).
      expect(error.message).toStartWith(`A ${from} ticket cannot ${to === from ? 'change' : `become ${to}`}`)
      expect((await getTicket(ticket.id)).status).toBe(from)
    }
  })

  test('solved_at is set on entering solved and cleared on reopening; closing sets closed_at and keeps solved_at', async () => {
    const ticket = await create()
    app.clock.advance(60_000)
    const solved = await json<Ticket>(await patch(ticket.id, { status: 'solved' }))
    expect(solved).toMatchObject({ status: 'solved', solved_at: iso(), closed_at: null })
    app.clock.advance(60_000)
    const reopened = await json<Ticket>(await patch(ticket.id, { status: 'open' }))
    expect(reopened).toMatchObject({ status: 'open', solved_at: null, closed_at: null })
    app.clock.advance(60_000)
    const solvedAgain = await json<Ticket>(await patch(ticket.id, { status: 'solved' }))
    const solvedAt = iso()
    expect(solvedAgain.solved_at).toBe(solvedAt)
    app.clock.advance(60_000)
    const closed = await json<Ticket>(await patch(ticket.id, { status: 'closed' }))
    expect(closed).toMatchObject({ status: 'closed', solved_at: solvedAt, closed_at: iso() })
    expect(await getTicket(ticket.id)).toEqual(closed)
  })

  test('a closed ticket refuses every change with 409, yet can be read, its comments listed, and deleted', async () => {
    const ticket = await ticketIn('open', { assignee_id: users.agent.user.id })
    expect((await comment(ticket.id, { body: 'Before closing' })).status).toBe(201)
    await patch(ticket.id, { status: 'solved' })
    const closed = await json<Ticket>(await patch(ticket.id, { status: 'closed' }))
    const eventCount = (await eventsOf(ticket.id)).length
    const changes: Record<string, unknown>[] = [
      { subject: 'Changed' },
      { description: 'Changed' },
      { status: 'open' },
      { status: 'closed' },
      { priority: 'urgent' },
      { type: 'task' },
      { channel: 'email' },
      { requester: { name: 'Ada', email: 'ada@example.com' } },
      { tags: ['changed'] },
      { custom_fields: { changed: true } },
    ]
    // Each refusal names both states: the status asked for, or what a ticket staying closed cannot do.
    const refusal = (asked: string) => `A closed ticket cannot ${asked}: it is final (it can still be read and deleted)`
    for (const change of changes) {
      const error = await expectError(await patch(ticket.id, change), 409, 'INVALID_STATE_TRANSITION')
      expect(error.message).toBe(refusal(change.status === 'open' ? 'become open' : 'change'))
    }
    for (const assignee of [users.supervisor.user.id, null, users.agent.user.id])
      expect((await expectError(await assign(ticket.id, assignee), 409, 'INVALID_STATE_TRANSITION')).message).toBe(refusal('be assigned'))
    const commented = await expectError(await comment(ticket.id, { body: 'After closing' }), 409, 'INVALID_STATE_TRANSITION')
    expect(commented.message).toBe(refusal('take a comment'))

    expect(await getTicket(ticket.id)).toEqual(closed)
    expect((await eventsOf(ticket.id)).length).toBe(eventCount)
    const comments = await send('GET', `/api/v1/tickets/${ticket.id}/comments`, users.admin.auth)
    expect(comments.status).toBe(200)
    expect((await json<{ comments: Comment[] }>(comments)).comments.map((c) => c.body)).toEqual(['Before closing'])
    expect((await send('DELETE', `/api/v1/tickets/${ticket.id}`, users.admin.auth)).status).toBe(204)
    expect((await send('GET', `/api/v1/tickets/${ticket.id}`, users.admin.auth)).status).toBe(404)
  })
})

describe('PATCH /api/v1/tickets/{id}', () => {
  const full = {
    subject: 'Original',
    description: 'Original description',
    priority: 'low',
    type: 'question',
    channel: 'email',
    requester: { name: 'Ada', email: 'ada@example.com' },
    tags: ['alpha', 'beta'],
    custom_fields: { floor: 3, building: 'B' },
  }

  test('only the given fields change; updated_at moves', async () => {
    const before = await create(full)
    app.clock.advance(5_000)
    const response = await patch(before.id, { priority: 'high' })
    expect(response.status).toBe(200)
    const after = await json<Ticket>(response)
    expect(after).toEqual({ ...before, priority: 'high', updated_at: iso() })
    expect(after.created_at).not.toBe(after.updated_at)
    expect(await getTicket(before.id)).toEqual(after)

    app.clock.advance(5_000)
    const second = await json<Ticket>(await patch(before.id, { requester: null, type: null, description: '' }))
    expect(second).toEqual({ ...after, requester: null, type: null, description: '', updated_at: iso() })
  })

  test('tags and custom_fields are replaced whole, and the tag filter follows', async () => {
    const before = await create({ ...full, subject: 'Replace whole', tags: ['keepme-not', 'shared-tag'] })
    const after = await json<Ticket>(await patch(before.id, { tags: ['Fresh', 'fresh', 'other'], custom_fields: { color: 'red' } }))
    expect(after.tags).toEqual(['fresh', 'other'])
    expect(after.custom_fields).toEqual({ color: 'red' })
    const listed = async (tag: string) =>
      (await json<{ tickets: Ticket[] }>(await send('GET', `/api/v1/tickets?tag=${tag}`, users.admin.auth))).tickets.map((t) => t.id)
    expect(await listed('keepme-not')).toEqual([])
    expect(await listed('fresh')).toEqual([before.id])
    const emptied = await json<Ticket>(await patch(before.id, { tags: [], custom_fields: {} }))
    expect([emptied.tags, emptied.custom_fields]).toEqual([[], {}])
    expect(await listed('fresh')).toEqual([])
  })

  test('a PATCH that changes nothing answers 200, writes no event and leaves updated_at', async () => {
    const before = await create(full)
    const eventCount = (await eventsOf(before.id)).length
    app.clock.advance(5_000)
    const response = await patch(before.id, {
      subject: 'Original',
      priority: 'low',
      tags: ['alpha', 'beta'],
      status: 'new',
      requester: { name: 'Ada', email: 'ADA@example.com' },
    })
    expect(response.status).toBe(200)
    expect(await json<Ticket>(response)).toEqual(before)
    expect((await eventsOf(before.id)).length).toBe(eventCount)
  })

  test('an empty body: 400 VALIDATION_FAILED', async () => {
    const ticket = await create()
    await expectError(await patch(ticket.id, {}), 400, 'VALIDATION_FAILED', 'body')
  })

  test('invalid values: 400 naming the field', async () => {
    const ticket = await create()
    await expectError(await patch(ticket.id, { subject: ' ' }), 400, 'VALIDATION_FAILED', 'subject')
    await expectError(await patch(ticket.id, { priority: 'extreme' }), 400, 'VALIDATION_FAILED', 'priority')
    await expectError(await patch(ticket.id, { status: 'archived' }), 400, 'VALIDATION_FAILED', 'status')
    await expectError(
      await patch(ticket.id, { custom_fields: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, 'y'.repeat(1000)])) }),
      400,
      'VALIDATION_FAILED',
      'custom_fields',
    )
  })

  test('a ticket that does not exist: 404', async () => {
    await expectError(await patch('tkt_00000000000000000000000000', { subject: 'x' }), 404, 'NOT_FOUND')
  })
})

describe('events', () => {
  test('ticket.created carries the envelope in order and the ticket', async () => {
    const ticket = await create({ subject: 'Event me', priority: 'high' })
    const [event, ...rest] = await eventsOf(ticket.id)
    expect(rest).toEqual([])
    expect(Object.keys(event!)).toEqual(['id', 'type', 'created_at', 'organization_id', 'data'])
    expect(event!.id).toMatch(/^evt_[0-9A-Z]{26}$/)
    expect(event).toMatchObject({ type: 'ticket.created', created_at: iso(), organization_id: acme.org.id })
    expect(event!.data.ticket).toMatchObject({ id: ticket.id, subject: 'Event me', status: 'new', priority: 'high' })
    expect(event!.data.ticket).toEqual(ticket)
  })

  test('created with an assignee: ticket.created then ticket.assigned with previous_assignee_id null', async () => {
    const ticket = await create({ assignee_id: users.agent.user.id })
    const events = await eventsOf(ticket.id)
    expect(events.map((e) => e.type)).toEqual(['ticket.created', 'ticket.assigned'])
    expect(events[1]!.data).toEqual({ ticket, previous_assignee_id: null })
  })

  test('ticket.updated names exactly the changed fields; entering solved adds ticket.resolved', async () => {
    const ticket = await create({ subject: 'Before', priority: 'low', tags: ['x'] })
    await patch(ticket.id, { subject: 'After', priority: 'low', tags: ['x', 'y'], description: '' })
    await patch(ticket.id, { requester: { name: 'Ada', email: 'ada@example.com' }, custom_fields: { a: 1 }, channel: 'web', type: 'task' })
    const solved = await json<Ticket>(await patch(ticket.id, { status: 'solved', priority: 'urgent' }))
    await patch(ticket.id, { status: 'open' })
    const events = await eventsOf(ticket.id)
    expect(events.map((e) => [e.type, e.data.changed === undefined ? undefined : [...e.data.changed].sort()])).toEqual([
      ['ticket.created', undefined],
      ['ticket.updated', ['subject', 'tags']],
      // A new requester e-mail links the ticket to that e-mail's contact.
      ['ticket.updated', ['channel', 'contact_id', 'custom_fields', 'requester', 'type']],
      ['ticket.updated', ['priority', 'status']],
      ['ticket.resolved', undefined],
      ['ticket.updated', ['status']],
    ])
    expect(events[1]!.data.ticket).toMatchObject({ id: ticket.id, subject: 'After', tags: ['x', 'y'] })
    expect(events[3]!.data.ticket).toEqual(solved)
    expect(events[4]!.data).toEqual({ ticket: solved })
  })

  test('ticket.assigned on assign and unassign, with the previous assignee; none for the current assignee', async () => {
    const ticket = await create()
    await assign(ticket.id, users.agent.user.id)
    await assign(ticket.id, users.agent.user.id)
    await assign(ticket.id, users.supervisor.user.id)
    await assign(ticket.id, null)
    await assign(ticket.id, null)
    const events = await eventsOf(ticket.id)
    expect(events.map((e) => [e.type, e.data.ticket.assignee_id, e.data.previous_assignee_id])).toEqual([
      ['ticket.created', null, undefined],
      ['ticket.assigned', users.agent.user.id, null],
      ['ticket.assigned', users.supervisor.user.id, users.agent.user.id],
      ['ticket.assigned', null, users.supervisor.user.id],
    ])
  })

  test('ticket.comment.added carries the comment and the ticket', async () => {
    const ticket = await create()
    app.clock.advance(1_000)
    const added = await json<Comment>(await comment(ticket.id, { body: 'Have you tried turning it off?', public: false }))
    const event = (await eventsOf(ticket.id)).at(-1)!
    expect(event.type).toBe('ticket.comment.added')
    expect(event.data.comment).toEqual(added)
    expect(event.data.ticket).toMatchObject({ id: ticket.id, updated_at: iso() })
  })
})

describe('POST /api/v1/tickets/{id}/assign', () => {
  test('to an active user of the organization, then to nobody', async () => {
    const ticket = await create()
    app.clock.advance(1_000)
    const assigned = await assign(ticket.id, users.supervisor.user.id)
    expect(assigned.status).toBe(200)
    expect(await json<Ticket>(assigned)).toEqual({ ...ticket, assignee_id: users.supervisor.user.id, updated_at: iso() })
    const unassigned = await assign(ticket.id, null)
    expect(unassigned.status).toBe(200)
    expect((await json<Ticket>(unassigned)).assignee_id).toBeNull()
    expect((await getTicket(ticket.id)).assignee_id).toBeNull()
  })

  test.each([
    ['a user of another organization', globex.users.agent.user.id],
    ['a disabled user', disabledUser.id],
    ['a user that does not exist', 'usr_00000000000000000000000000'],
  ])('to %s: 400 naming assignee_id, and nothing changes', async (_name, assigneeId) => {
    const ticket = await create({ assignee_id: users.agent.user.id })
    await expectError(await assign(ticket.id, assigneeId), 400, 'VALIDATION_FAILED', 'assignee_id')
    expect((await getTicket(ticket.id)).assignee_id).toBe(users.agent.user.id)
  })

  test('a body without assignee_id: 400', async () => {
    const ticket = await create()
    await expectError(
      await send('POST', `/api/v1/tickets/${ticket.id}/assign`, users.admin.auth, {}),
      400,
      'VALIDATION_FAILED',
      'assignee_id',
    )
  })
})

describe('comments', () => {
  test("201 with the comment; public defaults to true; the ticket's updated_at moves", async () => {
    const ticket = await create()
    app.clock.advance(2_000)
    const response = await comment(ticket.id, { body: 'On it' }, users.agent.auth)
    expect(response.status).toBe(201)
    const added = await json<Comment>(response)
    expect(Object.keys(added)).toEqual(['id', 'ticket_id', 'author_id', 'body', 'public', 'upload_ids', 'created_at'])
    expect(added.id).toMatch(/^tcm_[0-9A-Z]{26}$/)
    expect(added).toEqual({
      id: added.id,
      ticket_id: ticket.id,
      author_id: users.agent.user.id,
      body: 'On it',
      public: true,
      upload_ids: [],
      created_at: iso(),
    })
    expect(await getTicket(ticket.id)).toEqual({ ...ticket, updated_at: iso() })
    const internal = await json<Comment>(await comment(ticket.id, { body: 'Internal note', public: false }))
    expect(internal.public).toBe(false)
  })

  test('an empty or whitespace body: 400 naming body', async () => {
    const ticket = await create()
    await expectError(await comment(ticket.id, { body: '' }), 400, 'VALIDATION_FAILED', 'body')
    await expectError(await comment(ticket.id, { body: '  ' }), 400, 'VALIDATION_FAILED', 'body')
  })

  test('listed in pages: newest first by default, oldest first with sort=created_at:asc', async () => {
    const ticket = await create()
    for (const body of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      app.clock.advance(1_000)
      expect((await comment(ticket.id, { body })).status).toBe(201)
    }
    const pages = async (query: string) => {
      const seen: string[][] = []
      let token = ''
      do {
        const response = await send(
          'GET',
          `/api/v1/tickets/${ticket.id}/comments?page_size=2${query}${token ? `&page_token=${token}` : ''}`,
          users.admin.auth,
        )
        expect(response.status).toBe(200)
        const page = await json<{ comments: Comment[]; next_page_token: string }>(response)
        seen.push(page.comments.map((c) => c.body))
        token = page.next_page_token
      } while (token !== '' && seen.length < 10)
      return seen
    }
    expect(await pages('')).toEqual([['c5', 'c4'], ['c3', 'c2'], ['c1']])
    expect(await pages('&sort=created_at:asc')).toEqual([['c1', 'c2'], ['c3', 'c4'], ['c5']])
    const last = await json<{ comments: Comment[]; next_page_token: string; total_count: number }>(
      await send('GET', `/api/v1/tickets/${ticket.id}/comments?page_size=5&include_total=true`, users.admin.auth),
    )
    expect([last.comments.length, last.next_page_token, last.total_count]).toEqual([5, '', 5])
  })

  test("a page token of one ticket's comments on another ticket's: 400 INVALID_PAGE_TOKEN", async () => {
    const first = await create()
    const second = await create()
    for (const ticket of [first, second]) for (const body of ['a', 'b', 'c']) await comment(ticket.id, { body })
    const page = await json<{ next_page_token: string }>(
      await send('GET', `/api/v1/tickets/${first.id}/comments?page_size=1`, users.admin.auth),
    )
    expect(page.next_page_token).not.toBe('')
    expect(
      (await send('GET', `/api/v1/tickets/${first.id}/comments?page_size=1&page_token=${page.next_page_token}`, users.admin.auth)).status,
    ).toBe(200)
    await expectError(
      await send('GET', `/api/v1/tickets/${second.id}/comments?page_size=1&page_token=${page.next_page_token}`, users.admin.auth),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })

  test('on a ticket that does not exist: 404', async () => {
    await expectError(await comment('tkt_00000000000000000000000000', { body: 'Hello?' }), 404, 'NOT_FOUND')
    await expectError(await send('GET', '/api/v1/tickets/tkt_00000000000000000000000000/comments', users.admin.auth), 404, 'NOT_FOUND')
  })
})

// A fresh organization, so the filters see only these five tickets, ten seconds apart.
const team = await seedOrganization(app, 'filters')
const admin = team.users.admin.auth
const agentId = team.users.agent.user.id
const supervisorId = team.users.supervisor.user.id
const made: Ticket[] = []
const specs: Record<string, unknown>[] = [
  { subject: 't1', status: 'new', priority: 'low', tags: ['Billing'] },
  { subject: 't2', status: 'open', priority: 'urgent', tags: ['billing', 'vip'], assignee_id: agentId },
  { subject: 't3', status: 'pending', priority: 'high', tags: ['vip'], assignee_id: supervisorId },
  { subject: 't4', status: 'open', priority: 'normal' },
  { subject: 't5', status: 'on_hold', priority: 'urgent', assignee_id: agentId },
]
for (const spec of specs) {
  app.clock.advance(10_000)
  made.push(await create(spec, admin))
}
const [t1, t2, t3, t4, t5] = made as [Ticket, Ticket, Ticket, Ticket, Ticket]
describe('GET /api/v1/tickets filters and sorts', () => {
  const list = async (query: string) => {
    const response = await send('GET', `/api/v1/tickets?${query}`, admin)
    expect(response.status).toBe(200)
    return (await json<{ tickets: Ticket[] }>(response)).tickets.map((t) => t.subject)
  }

  test.each([
    ['', ['t5', 't4', 't3', 't2', 't1']],
    ['status=open', ['t4', 't2']],
    ['status=solved', []],
    ['priority=urgent', ['t5', 't2']],
    ['priority=low', ['t1']],
    [`assignee_id=${agentId}`, ['t5', 't2']],
    ['assignee_id=none', ['t4', 't1']],
    ['assignee_id=usr_00000000000000000000000000', []],
    ['tag=billing', ['t2', 't1']],
    ['tag=BILLING', ['t2', 't1']],
    ['tag=Vip', ['t3', 't2']],
    ['tag=nope', []],
    ['status=open&assignee_id=none', ['t4']],
    ['tag=vip&priority=urgent', ['t2']],
    [`status=on_hold&priority=urgent&assignee_id=${agentId}`, ['t5']],
  ])('?%s', async (query, expected) => {
    expect(await list(query)).toEqual(expected)
  })

  test('created_after and created_before are exclusive bounds, and combine', async () => {
    expect(await list(`created_after=${t2.created_at}`)).toEqual(['t5', 't4', 't3'])
    expect(await list(`created_before=${t4.created_at}`)).toEqual(['t3', 't2', 't1'])
    expect(await list(`created_after=${t2.created_at}&created_before=${t4.created_at}`)).toEqual(['t3'])
    expect(await list(`created_after=${t2.created_at}&created_before=${t4.created_at}&status=open`)).toEqual([])
    expect(await list(`created_after=${t1.created_at}&tag=vip`)).toEqual(['t3', 't2'])
    expect(await list(`created_after=${t5.created_at}`)).toEqual([])
  })

  test('an invalid created_after or created_before: 400 naming it', async () => {
    await expectError(await send('GET', '/api/v1/tickets?created_after=yesterday', admin), 400, 'VALIDATION_FAILED', 'created_after')
    await expectError(await send('GET', '/api/v1/tickets?created_before=2026-13-45', admin), 400, 'VALIDATION_FAILED', 'created_before')
    // Impossible or zone-less times are refused rather than rolled over or read in the server's zone.
    await expectError(
      await send('GET', '/api/v1/tickets?created_after=2026-02-30T00:00:00Z', admin),
      400,
      'VALIDATION_FAILED',
      'created_after',
    )
    await expectError(await send('GET', '/api/v1/tickets?created_before=2026-06-01', admin), 400, 'VALIDATION_FAILED', 'created_before')
    await expectError(await send('GET', '/api/v1/tickets?status=archived', admin), 400, 'VALIDATION_FAILED', 'status')
  })

  test('sort by priority: urgent first with :desc, low first with :asc', async () => {
    const priorities = async (sort: string) => {
      const response = await send('GET', `/api/v1/tickets?sort=${sort}`, admin)
      return (await json<{ tickets: Ticket[] }>(response)).tickets.map((t) => t.priority)
    }
    expect(await priorities('priority:desc')).toEqual(['urgent', 'urgent', 'high', 'normal', 'low'])
    expect(await priorities('priority:asc')).toEqual(['low', 'normal', 'high', 'urgent', 'urgent'])
    expect((await list('sort=priority:desc')).slice(0, 2).sort()).toEqual(['t2', 't5'])
  })

  test('sort by number', async () => {
    expect(await list('sort=number:asc')).toEqual(['t1', 't2', 't3', 't4', 't5'])
    expect(await list('sort=number:desc')).toEqual(['t5', 't4', 't3', 't2', 't1'])
    expect(made.map((t) => t.number)).toEqual([1, 2, 3, 4, 5])
  })

  test('sort by updated_at follows the latest change', async () => {
    app.clock.advance(10_000)
    expect((await patch(t1.id, { priority: 'high' }, admin)).status).toBe(200)
    app.clock.advance(10_000)
    expect((await comment(t3.id, { body: 'bump' }, admin)).status).toBe(201)
    expect(await list('sort=updated_at:desc')).toEqual(['t3', 't1', 't5', 't4', 't2'])
    expect(await list('sort=updated_at:asc')).toEqual(['t2', 't4', 't5', 't1', 't3'])
  })

  test('filtered pages keep the filter, and a token is refused under another filter', async () => {
    const first = await json<{ tickets: Ticket[]; next_page_token: string; total_count: number }>(
      await send('GET', '/api/v1/tickets?tag=vip&page_size=1&include_total=true', admin),
    )
    expect([first.tickets.map((t) => t.subject), first.total_count]).toEqual([['t3'], 2])
    const second = await json<{ tickets: Ticket[]; next_page_token: string }>(
      await send('GET', `/api/v1/tickets?tag=vip&page_size=1&page_token=${first.next_page_token}`, admin),
    )
    expect([second.tickets.map((t) => t.subject), second.next_page_token]).toEqual([['t2'], ''])
    await expectError(
      await send('GET', `/api/v1/tickets?tag=billing&page_size=1&page_token=${first.next_page_token}`, admin),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })
})
