// GET /api/v1/events/stream on one instance: live events in order with the webhooks' envelope, the
// types filter, what each role may see, resume with Last-Event-ID (no event lost or repeated), pages
// of the log, the heartbeat (not counted as a use of the credential), the safety poll, the per-user
// limit, the end of a revoked credential, and nothing left behind once a client goes away.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { hubOf, MAX_STREAMS_PER_USER } from '../../../src/modules/event-stream/index.ts'
import { type EventType, recordChange, recordEvent } from '../../../src/modules/events/index.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { expectError } from '../../helpers/errors.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
import { until } from '../../helpers/wait.ts'
import { SseClient } from './sse.ts'

setDefaultTimeout(60_000)

let app: TestApp
let acme: SeededOrg
const open: SseClient[] = []

beforeAll(async () => {
  app = await makeTestApp({ EVENT_STREAM_HEARTBEAT: '1' })
  acme = await seedOrganization(app)
})

afterAll(async () => {
  for (const client of open) await client.close()
  await app.close()
})

async function stream(auth: Record<string, string>, query = '', headers: Record<string, string> = {}): Promise<SseClient> {
  const response = await app.request(`/api/v1/events/stream${query}`, { headers: { ...auth, ...headers } })
  expect(response.status).toBe(200)
  const client = new SseClient(response)
  open.push(client)
  await client.waitForComment('connected')
  return client
}

let tickets = 0
async function ticket(body: Record<string, unknown> = {}): Promise<string> {
  const subject = `Ticket ${++tickets}`
  const response = await app.request('/api/v1/tickets', {
    method: 'POST',
    headers: { ...acme.users.admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ subject, ...body }),
  })
  expect(response.status).toBe(201)
  return subject
}

/** Events of any type written as a module would (`count` of them in one transaction). */
async function emit(type: EventType, data: Record<string, unknown>, count = 1): Promise<void> {
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  await app.context.db.write('test.emit', async (tx) => {
    for (let i = 0; i < count; i++)
      await recordChange(tx, ctx, { type, organizationId: acme.org.id, target: { type: 'test', id: `t${i}` }, data: { ...data, n: i } })
  })
}

const subjects = (client: SseClient) => client.events.map((e) => (e.envelope.data.ticket as { subject: string }).subject)

describe('GET /api/v1/events/stream', () => {
  test('events appear live, in order, with the envelope webhooks receive', async () => {
    const client = await stream(acme.users.admin.auth)
    expect(client.response.headers.get('content-type')).toStartWith('text/event-stream')
    expect(client.response.headers.get('cache-control')).toBe('no-store')
    const made = [await ticket(), await ticket(), await ticket()]
    const events = await client.waitFor(3)
    expect(subjects(client)).toEqual(made)
    expect(events.map((e) => e.type)).toEqual(['ticket.created', 'ticket.created', 'ticket.created'])
    expect(events[1]!.id).toBe(events[0]!.id + 1)
    expect(events[2]!.id).toBe(events[1]!.id + 1)
    const [row] = await app.context.db.raw.all<{ body: string }>('SELECT body FROM events WHERE id = ?', [events[0]!.envelope.id])
    expect(events[0]!.envelope).toEqual(JSON.parse(row!.body))
    expect(Object.keys(events[0]!.envelope)).toEqual(['id', 'type', 'created_at', 'organization_id', 'data'])
    await client.close()
  })

  test('types= keeps the named types and prefixes; an unknown type is 400', async () => {
    const client = await stream(acme.users.admin.auth, '?types=crm.contact.*,ticket.updated')
    await ticket()
    await emit('crm.contact.created', { contact: { id: 'ctc_1' } })
    await emit('crm.account.created', { account: { id: 'acc_1' } })
    await emit('ticket.updated', { ticket: { id: 't', assignee_id: null, subject: 'x' } })
    await client.waitFor(2)
    await Bun.sleep(100)
    expect(client.events.map((e) => e.type)).toEqual(['crm.contact.created', 'ticket.updated'])
    await client.close()
    await expectError(
      await app.request('/api/v1/events/stream?types=ticket.*,nope', { headers: acme.users.admin.auth }),
      400,
      'VALIDATION_FAILED',
    )
    await expectError(await app.request('/api/v1/events/stream?types=,', { headers: acme.users.admin.auth }), 400, 'VALIDATION_FAILED')
  })

  test('each role sees what it may read: no billing events for a viewer, no ticket of another agent for an agent', async () => {
    const [admin, viewer, agent] = await Promise.all([
      stream(acme.users.admin.auth),
      stream(acme.users.viewer.auth),
      stream(acme.users.agent.auth),
    ])
    await emit('invoice.paid', { invoice: { id: 'inv_1' } })
    const others = await ticket({ assignee_id: acme.users.supervisor.user.id })
    const nobodys = await ticket()
    const agents = await ticket({ assignee_id: acme.users.agent.user.id })
    await emit('agent.status_changed', { agent: { id: acme.users.supervisor.user.id } })
    await emit('agent.status_changed', { agent: { id: acme.users.agent.user.id } })
    await emit('call.started', { call: { id: 'call_theirs', agent_id: acme.users.supervisor.user.id } })
    await emit('call.started', { call: { id: 'call_mine', agent_id: acme.users.agent.user.id } })
    await emit('recording.ready', { recording: { id: 'rec_1', call_id: 'call_theirs' } })
    await emit('recording.ready', { recording: { id: 'rec_2', call_id: 'call_mine' } })
    await emit('engagement.created', { engagement: { id: 'eng_1', assignee_id: acme.users.supervisor.user.id, status: 'active' } })
    await emit('engagement.created', { engagement: { id: 'eng_2', assignee_id: null, status: 'queued' } })
    await emit('user.updated', { user: { id: acme.users.viewer.user.id } })
    // A ticket created with an assignee is also ticket.assigned.
    await admin.waitFor(15)
    await viewer.waitFor(14)
    await agent.waitFor(8)
    await Bun.sleep(200)
    expect(admin.events.length).toBe(15)
    expect(viewer.events.map((e) => e.type)).toEqual(admin.events.map((e) => e.type).filter((type) => type !== 'invoice.paid'))
    const seen = agent.events.map((e) => {
      const data = e.envelope.data as Record<string, { id?: string; subject?: string }>
      return `${e.type} ${data.ticket?.subject ?? data.agent?.id ?? data.call?.id ?? data.recording?.id ?? data.engagement?.id ?? data.user?.id}`
    })
    expect(seen).toEqual([
      `ticket.created ${nobodys}`,
      `ticket.created ${agents}`,
      `ticket.assigned ${agents}`,
      `agent.status_changed ${acme.users.agent.user.id}`,
      'call.started call_mine',
      'recording.ready rec_2',
      'engagement.created eng_2',
      `user.updated ${acme.users.viewer.user.id}`,
    ])
    expect(seen.join()).not.toContain(others)
    for (const client of [admin, viewer, agent]) await client.close()
  })

  test('resumes after a disconnect with Last-Event-ID: nothing lost, nothing repeated, then live again', async () => {
    const first = await stream(acme.users.admin.auth, '?types=ticket.created')
    const before = [await ticket(), await ticket()]
    await first.waitFor(2)
    await first.close()
    const last = first.events.at(-1)!.id
    const meanwhile = [await ticket(), await ticket(), await ticket()]
    // The header wins over the query (a browser's EventSource keeps the URL it first opened).
    const second = await stream(acme.users.admin.auth, '?types=ticket.created&last_event_id=1', { 'last-event-id': String(last) })
    await second.waitFor(3)
    const after = await ticket()
    await second.waitFor(4)
    await Bun.sleep(100)
    expect([...subjects(first), ...subjects(second)]).toEqual([...before, ...meanwhile, after])
    const ids = [...first.events, ...second.events].map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    await second.close()
    // The query, for clients that cannot send the header.
    const third = await stream(acme.users.admin.auth, `?types=ticket.created&last_event_id=${last}`)
    await third.waitFor(4)
    expect(subjects(third)).toEqual([...meanwhile, after])
    await third.close()
  })

  test('a resume reads the log in pages (more events than one page)', async () => {
    const client = await stream(acme.users.admin.auth, '?types=crm.account.updated')
    await emit('crm.account.updated', { account: { id: 'acc_first' } })
    const [start] = await client.waitFor(1)
    await client.close()
    await emit('crm.account.updated', { account: { id: 'acc_x' } }, 250)
    const resumed = await stream(acme.users.admin.auth, '?types=crm.account.updated', { 'last-event-id': String(start!.id) })
    const events = await resumed.waitFor(250)
    expect(events.map((e) => e.envelope.data.n)).toEqual(Array.from({ length: 250 }, (_, i) => i))
    await resumed.close()
  })

  test('a bad Last-Event-ID is 400', async () => {
    for (const id of ['abc', '-1', '1.5', '99999999999'])
      await expectError(
        await app.request('/api/v1/events/stream', { headers: { ...acme.users.admin.auth, 'last-event-id': id } }),
        400,
        'VALIDATION_FAILED',
      )
    await expectError(
      await app.request('/api/v1/events/stream?last_event_id=x', { headers: acme.users.admin.auth }),
      400,
      'VALIDATION_FAILED',
    )
  })

  test('no credential is 401', async () => {
    await expectError(await app.request('/api/v1/events/stream'), 401, 'UNAUTHENTICATED')
  })

  test('a heartbeat comment every EVENT_STREAM_HEARTBEAT while idle', async () => {
    const client = await stream(acme.users.viewer.auth)
    await client.waitForComment('ping', 15_000)
    await until(() => client.comments.filter((c) => c === 'ping').length >= 2, 'a second ping', 15_000)
    await client.close()
  })

  test('an event whose signal was missed still comes, by the poll; a webhook test send never does', async () => {
    const client = await stream(acme.users.admin.auth, '?types=crm.contact.deleted')
    // A webhook's test send (data.test) is for its webhook, never shown on the stream.
    await emit('crm.contact.deleted', { contact: { id: 'ctc_test' }, test: true })
    // recordEvent signals nobody (no subscriber runs): only the poll finds it.
    await app.context.db.write('test.silent', (tx) =>
      recordEvent(tx, {
        organizationId: acme.org.id,
        type: 'crm.contact.deleted',
        data: { contact: { id: 'ctc_silent' } },
        now: app.clock.now(),
      }),
    )
    await client.waitFor(1, 15_000)
    expect(client.events.map((e) => (e.envelope.data.contact as { id: string }).id)).toEqual(['ctc_silent'])
    await client.close()
  })

  test(`at most ${MAX_STREAMS_PER_USER} streams per user: the next is 409 LIMIT_REACHED until one closes`, async () => {
    const clients: SseClient[] = []
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) clients.push(await stream(acme.users.supervisor.auth))
    await expectError(await app.request('/api/v1/events/stream', { headers: acme.users.supervisor.auth }), 409, 'LIMIT_REACHED')
    // Another user is not counted against them.
    const other = await stream(acme.users.viewer.auth)
    await clients[0]!.close()
    // Theirs and the viewer's.
    await until(() => hubOf(app.context).stats().streams === MAX_STREAMS_PER_USER, 'the closed stream to be released')
    clients[0] = await stream(acme.users.supervisor.auth)
    for (const client of [...clients, other]) await client.close()
  })

  test('a revoked session ends the stream at its next heartbeat', async () => {
    const client = await stream(acme.users.agent.auth)
    const logout = await app.request('/api/v1/auth/logout', { method: 'POST', headers: acme.users.agent.auth })
    expect(logout.status).toBe(204)
    await client.waitForEnd(15_000)
    expect(client.others.map((o) => o.event)).toEqual(['stream.closed'])
    expect(JSON.parse(client.others[0]!.data).code).toBe('TOKEN_INVALID')
  })

  test("the heartbeat's credential check is not a use: an open stream alone leaves the session's last use where it was", async () => {
    const userId = acme.users.supervisor.user.id
    const lastUsed = async () =>
      Number(
        (
          (await app.context.db.raw.get<{ t: number }>('SELECT max(last_used_at) AS t FROM sessions WHERE user_id = ?', [userId])) as {
            t: number
          }
        ).t,
      )
    // A request first, its use written (the stream opened at the same moment adds none).
    const used = async () => {
      expect((await app.request('/api/v1/me', { headers: acme.users.supervisor.auth })).status).toBe(200)
      const now = app.clock.now()
      for (const deadline = Date.now() + 15_000; (await lastUsed()) !== now && Date.now() < deadline; ) await Bun.sleep(10)
      expect(await lastUsed()).toBe(now)
    }
    app.clock.advance(5 * 60_000)
    await used()
    const client = await stream(acme.users.supervisor.auth)
    const before = await lastUsed()
    // Past the interval at which a use is written (a minute at most), within the token's hour.
    app.clock.advance(5 * 60_000)
    const pings = client.comments.filter((c) => c === 'ping').length
    await until(() => client.comments.filter((c) => c === 'ping').length >= pings + 2, 'two more pings', 15_000)
    await Bun.sleep(50)
    expect(await lastUsed()).toBe(before)
    // A request is a use: written at once (the same check, counted).
    await used()
    await client.close()
  })

  test('over HTTP: each event reaches the client (nothing buffered), and a client that hangs up is released', async () => {
    app.app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const server = app.app.server!
      const abort = new AbortController()
      const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/events/stream?types=ticket.created`, {
        headers: acme.users.admin.auth,
        signal: abort.signal,
      })
      expect(response.status).toBe(200)
      const client = new SseClient(response)
      await client.waitForComment('connected')
      const subject = await ticket()
      const [event] = await client.waitFor(1, 15_000)
      expect((event!.envelope.data.ticket as { subject: string }).subject).toBe(subject)
      expect(hubOf(app.context).stats().streams).toBe(1)
      abort.abort()
      await until(() => hubOf(app.context).stats().streams === 0, 'the server to release the stream of a client that hung up', 15_000)
    } finally {
      await app.app.stop(true)
    }
  })

  test('closeAll (a shutdown) ends every open stream cleanly', async () => {
    const clients = [await stream(acme.users.admin.auth), await stream(acme.users.viewer.auth)]
    hubOf(app.context).closeAll()
    for (const client of clients) await client.waitForEnd(15_000)
    expect(hubOf(app.context).stats().streams).toBe(0)
  })

  test('nothing is left behind once the clients have gone', async () => {
    for (const client of open) await client.close()
    await until(() => hubOf(app.context).stats().streams === 0, 'every stream to be released')
    expect(hubOf(app.context).stats()).toEqual({ streams: 0, users: 0, organizations: 0, listening: false })
  })
})
