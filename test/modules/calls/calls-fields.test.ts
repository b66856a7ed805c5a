// A call's fields through the API: numbers normalized to E.164, the contact found by the other party's
// number (or given, or none), the agent an active user of the organization, a ticket of the organization,
// provider_call_id unique per provider, the audited PATCH of ticket and contact, and the list's filters.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Call, callsApp, callsClient, expectError } from './calls-api.ts'

const { app, acme, globex } = await callsApp()
const { users } = acme
const { send, create, get, move } = callsClient(app, users.admin.auth)

async function contactWith(phone: string, auth = users.admin.auth, name = 'Grace Caller'): Promise<string> {
  const response = await send('POST', '/api/v1/contacts', auth, { name, phone })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

async function ticket(auth = users.admin.auth): Promise<string> {
  const response = await send('POST', '/api/v1/tickets', auth, { subject: 'Called about an invoice' })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

describe('numbers and contact', () => {
  test('from and to are stored in E.164; a number without a country code is 400 naming it', async () => {
    const call = await create({ from: '+44 20 7946 0958', to: '(+1) 415-555-0199' })
    expect(call).toMatchObject({ from: '+442079460958', to: '+14155550199' })
    for (const field of ['from', 'to'])
      await expectError(
        await send('POST', '/api/v1/calls', users.admin.auth, {
          direction: 'inbound',
          from: '+14155550123',
          to: '+14155550199',
          [field]: '020 7946 0958',
        }),
        400,
        'VALIDATION_FAILED',
        field,
      )
  })

  test("the contact is found by the caller's number for an inbound call, the callee's for an outbound one", async () => {
    const caller = await contactWith('+1 (650) 555-0101', users.admin.auth, 'Inbound Caller')
    const callee = await contactWith('+16505550102', users.admin.auth, 'Outbound Callee')
    expect((await create({ direction: 'inbound', from: '+16505550101', to: '+16505550102' })).contact_id).toBe(caller)
    expect((await create({ direction: 'outbound', from: '+16505550101', to: '+1 650 555 0102' })).contact_id).toBe(callee)
    // Nobody has the number: none. Given null: none, even when someone has it. Given: that one.
    expect((await create({ from: '+16505550199' })).contact_id).toBeNull()
    expect((await create({ from: '+16505550101', contact_id: null })).contact_id).toBeNull()
    expect((await create({ from: '+16505550101', contact_id: callee })).contact_id).toBe(callee)
  })

  test("a contact merged away, or another organization's, is never found", async () => {
    const survivor = await contactWith('+16505550111', users.admin.auth, 'Survivor')
    const merged = await contactWith('+16505550112', users.admin.auth, 'Merged')
    expect((await send('POST', `/api/v1/contacts/${survivor}/merge`, users.admin.auth, { other_id: merged })).status).toBe(200)
    expect((await create({ from: '+16505550112' })).contact_id).toBeNull()
    const theirs = await contactWith('+16505550113', globex.users.admin.auth, 'Globex Contact')
    expect((await create({ from: '+16505550113' })).contact_id).toBeNull()
    await expectError(
      await send('POST', '/api/v1/calls', users.admin.auth, {
        direction: 'inbound',
        from: '+16505550113',
        to: '+16505550114',
        contact_id: theirs,
      }),
      400,
      'VALIDATION_FAILED',
      'contact_id',
    )
  })
})

describe('references', () => {
  test('agent_id is an active user of the organization', async () => {
    const agent = users.agent.user.id
    expect((await create({ agent_id: agent })).agent_id).toBe(agent)
    const theirs = globex.users.agent.user.id
    await expectError(
      await send('POST', '/api/v1/calls', users.admin.auth, {
        direction: 'inbound',
        from: '+14155550123',
        to: '+14155550199',
        agent_id: theirs,
      }),
      400,
      'VALIDATION_FAILED',
      'agent_id',
    )
    const call = await create()
    await expectError(
      await send('POST', `/api/v1/calls/${call.id}/answer`, users.admin.auth, { agent_id: theirs }),
      400,
      'VALIDATION_FAILED',
      'agent_id',
    )
    expect((await get(call.id)).status).toBe('queued')
  })

  test('answer: the agent given, else the one it rings at, else the caller', async () => {
    const supervisor = users.supervisor.user.id
    const rungAt = await create()
    expect((await json<Call>(await move(rungAt.id, 'ringing', users.admin.auth, { agent_id: supervisor }))).agent_id).toBe(supervisor)
    expect((await json<Call>(await move(rungAt.id, 'in_progress'))).agent_id).toBe(supervisor)
    const plain = await create()
    expect((await json<Call>(await move(plain.id, 'in_progress'))).agent_id).toBe(users.admin.user.id)
    const given = await create()
    expect((await json<Call>(await move(given.id, 'in_progress', users.admin.auth, { agent_id: supervisor }))).agent_id).toBe(supervisor)
  })

  test('ticket_id is a ticket of the organization, at creation or by PATCH (audited, no event)', async () => {
    const mine = await ticket()
    const theirs = await ticket(globex.users.admin.auth)
    expect((await create({ ticket_id: mine })).ticket_id).toBe(mine)
    await expectError(
      await send('POST', '/api/v1/calls', users.admin.auth, {
        direction: 'inbound',
        from: '+14155550123',
        to: '+14155550199',
        ticket_id: theirs,
      }),
      400,
      'VALIDATION_FAILED',
      'ticket_id',
    )
    const call = await create()
    const contact = await contactWith('+16505550121')
    const events = await app.context.db.raw.all('SELECT id FROM events')
    const linked = await json<Call>(await send('PATCH', `/api/v1/calls/${call.id}`, users.admin.auth, { ticket_id: mine }))
    expect(linked.ticket_id).toBe(mine)
    await expectError(
      await send('PATCH', `/api/v1/calls/${call.id}`, users.admin.auth, { ticket_id: theirs }),
      400,
      'VALIDATION_FAILED',
      'ticket_id',
    )
    expect((await json<Call>(await send('PATCH', `/api/v1/calls/${call.id}`, users.admin.auth, { contact_id: contact }))).contact_id).toBe(
      contact,
    )
    expect(
      (await json<Call>(await send('PATCH', `/api/v1/calls/${call.id}`, users.admin.auth, { ticket_id: null, contact_id: null })))
        .ticket_id,
    ).toBeNull()
    expect(await app.context.db.raw.all('SELECT id FROM events')).toEqual(events)
    const audit = await app.context.db.raw.all<{ details: string }>(
      "SELECT details FROM audit_logs WHERE event = 'call.updated' AND target_id = ? ORDER BY seq",
      [call.id],
    )
    expect(audit.map((a) => JSON.parse(a.details))).toEqual([
      { changed: ['ticket_id'] },
      { changed: ['contact_id'] },
      { changed: ['ticket_id', 'contact_id'] },
    ])
    // An ended call can still be linked.
    const ended = await json<Call>(await move((await create()).id, 'canceled'))
    expect((await send('PATCH', `/api/v1/calls/${ended.id}`, users.admin.auth, { ticket_id: mine })).status).toBe(200)
  })

  test('provider_call_id is unique per provider in the organization (409 naming it)', async () => {
    const first = await create({ provider: 'twilio', provider_call_id: 'CA0001' })
    expect(first).toMatchObject({ provider: 'twilio', provider_call_id: 'CA0001' })
    const error = await expectError(
      await send('POST', '/api/v1/calls', users.admin.auth, {
        direction: 'inbound',
        from: '+14155550123',
        to: '+14155550199',
        provider: 'twilio',
        provider_call_id: 'CA0001',
      }),
      409,
      'CONFLICT',
      'provider_call_id',
    )
    expect(error.message).toContain(first.id)
    // Another provider, or another organization, may have the same id.
    expect((await create({ provider: 'manual', provider_call_id: 'CA0001' })).provider).toBe('manual')
    const theirs = await send('POST', '/api/v1/calls', globex.users.admin.auth, {
      direction: 'inbound',
      from: '+14155550123',
      to: '+14155550199',
      provider: 'twilio',
      provider_call_id: 'CA0001',
    })
    expect(theirs.status).toBe(201)
    expect((await create()).provider).toBe('manual')
  })
})

describe('list', () => {
  test('filters: status (in-progress spelled either way, active), direction, agent, queue, contact, times', async () => {
    const fresh = await callsApp()
    const c = callsClient(fresh.app, fresh.acme.users.admin.auth)
    const list = async (query: string) => {
      const response = await c.send('GET', `/api/v1/calls?${query}`)
      expect(response.status).toBe(200)
      return (await json<{ calls: Call[] }>(response)).calls.map((call) => call.id).sort()
    }
    const agent = fresh.acme.users.agent.user.id
    const a = await c.callIn('in_progress', { queue: 'support', agent_id: agent })
    const b = await c.callIn('completed', { direction: 'outbound', queue: 'sales' })
    const d = await c.callIn('ringing')
    fresh.app.clock.advance(60_000)
    const e = await c.callIn('queued')
    expect(await list('status=in-progress')).toEqual([a.id])
    expect(await list('status=in_progress')).toEqual([a.id])
    expect(await list('status=active')).toEqual([a.id, d.id, e.id].sort())
    expect(await list('direction=outbound')).toEqual([b.id])
    expect(await list(`agent_id=${agent}`)).toEqual([a.id])
    // Answered by the admin (the caller answers when no agent is named).
    expect(await list(`agent_id=${fresh.acme.users.admin.user.id}`)).toEqual([b.id])
    expect(await list('agent_id=none')).toEqual([d.id, e.id].sort())
    expect(await list('queue=support')).toEqual([a.id])
    const after = new Date(Date.parse(d.created_at) + 1).toISOString()
    expect(await list(`created_after=${after}`)).toEqual([e.id])
    expect(await list(`initialized_before=${after}`)).toEqual([a.id, b.id, d.id].sort())
    const page = await json<{ calls: Call[]; next_page_token: string }>(
      await c.send('GET', '/api/v1/calls?page_size=2&sort=initialized_at:asc'),
    )
    expect(page.calls.map((call) => call.id)).toEqual([a.id, b.id])
    const next = await json<{ calls: Call[] }>(
      await c.send('GET', `/api/v1/calls?page_size=2&sort=initialized_at:asc&page_token=${page.next_page_token}`),
    )
    expect(next.calls.map((call) => call.id)).toEqual([d.id, e.id])
    await expectError(await c.send('GET', '/api/v1/calls?status=talking'), 400, 'VALIDATION_FAILED')
    await expectError(await c.send('GET', '/api/v1/calls?created_after=yesterday'), 400, 'VALIDATION_FAILED')
  })

  test('contact filter', async () => {
    const contact = await contactWith('+16505550131')
    const call = await create({ from: '+16505550131' })
    const body = await json<{ calls: Call[] }>(await send('GET', `/api/v1/calls?contact_id=${contact}`))
    expect(body.calls.map((c) => c.id)).toEqual([call.id])
  })
})
