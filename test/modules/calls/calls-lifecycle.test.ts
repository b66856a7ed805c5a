// The call lifecycle through the API, table-driven: every allowed and every refused move (ring, answer,
// end with each terminal status) from every status, 409 naming both states and changing nothing;
// transfers of active calls only; the times and the wait and talk seconds they define (fake clock).
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { ALLOWED, type Call, callsApp, callsClient, expectError, STATUSES, TERMINAL } from './calls-api.ts'

const clock = new FakeClock()
const { app, acme } = await callsApp({ clock })
const { users } = acme
const { send, create, get, move, callIn } = callsClient(app, users.admin.auth)

describe('every move from every status', () => {
  // queued is where a call starts: no operation moves a call back to it.
  const targets = STATUSES.filter((s) => s !== 'queued')
  const pairs = STATUSES.flatMap((from) => targets.map((to) => [from, to] as const))
  test.each(pairs)('%s -> %s', async (from, to) => {
    const call = await callIn(from)
    const response = await move(call.id, to)
    if (ALLOWED[from]!.includes(to)) {
      expect(response.status).toBe(200)
      expect((await json<Call>(response)).status).toBe(to)
    } else {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      // Both states are named.
      expect(error.message).toContain(`A ${from} call`)
      expect(error.message).toContain(to)
      expect(await get(call.id)).toEqual(call)
    }
  })

  test('a call is created queued or ringing, never further along', async () => {
    expect((await create()).status).toBe('queued')
    const ringing = await create({ status: 'ringing' })
    expect(ringing.status).toBe('ringing')
    expect(ringing.ringing_at).toBe(ringing.initialized_at)
    for (const status of ['in_progress', 'completed'])
      await expectError(
        await send('POST', '/api/v1/calls', users.admin.auth, { direction: 'inbound', from: '+14155550123', to: '+14155550199', status }),
        400,
        'VALIDATION_FAILED',
        'status',
      )
  })

  test('end defaults to completed, and end_reason to the status', async () => {
    const call = await callIn('in_progress')
    const ended = await json<Call>(await send('POST', `/api/v1/calls/${call.id}/end`, users.admin.auth, {}))
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'completed' })
    const other = await callIn('ringing')
    const busy = await json<Call>(await move(other.id, 'busy', users.admin.auth, { end_reason: '  sip_486  ' }))
    expect(busy).toMatchObject({ status: 'busy', end_reason: 'sip_486' })
    // A queued call cannot complete: it was never answered.
    const queued = await create()
    const error = await expectError(
      await send('POST', `/api/v1/calls/${queued.id}/end`, users.admin.auth, {}),
      409,
      'INVALID_STATE_TRANSITION',
    )
    expect(error.message).toBe('A queued call cannot become completed; it can become ringing, in_progress, failed, canceled')
  })
})

describe('transfer', () => {
  test.each(STATUSES)('a %s call', async (status) => {
    const call = await callIn(status, { queue: 'support' })
    const response = await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { queue: 'billing' } })
    if ((TERMINAL as readonly string[]).includes(status)) {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      expect(error.message).toBe(`A ${status} call has ended: it cannot be transferred`)
    } else {
      expect(response.status).toBe(200)
      expect(await json<Call>(response)).toMatchObject({ status, queue: 'billing', agent_id: null })
    }
  })

  test('to an agent the call keeps its queue; to a queue it leaves its agent; to whoever has it, 409', async () => {
    const agent = users.agent.user.id
    const supervisor = users.supervisor.user.id
    const call = await callIn('in_progress', { queue: 'support', agent_id: agent })
    const toSupervisor = await json<Call>(
      await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { agent_id: supervisor } }),
    )
    expect(toSupervisor).toMatchObject({ agent_id: supervisor, queue: 'support', status: 'in_progress', answered_at: call.answered_at })
    await expectError(
      await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { agent_id: supervisor } }),
      409,
      'CONFLICT',
    )
    const toQueue = await json<Call>(
      await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { queue: 'billing' } }),
    )
    expect(toQueue).toMatchObject({ agent_id: null, queue: 'billing' })
    await expectError(
      await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { queue: ' billing ' } }),
      409,
      'CONFLICT',
    )
  })

  test('bad targets are 400', async () => {
    const call = await callIn('ringing')
    const globex = await seedOtherUser()
    await expectError(
      await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { agent_id: globex } }),
      400,
      'VALIDATION_FAILED',
      'to.agent_id',
    )
    for (const to of [{}, { agent_id: users.agent.user.id, queue: 'x' }, { queue: '  ' }])
      await expectError(await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to }), 400, 'VALIDATION_FAILED')
  })
})

describe('times, wait and talk seconds', () => {
  test('answered: wait from initialization to answer, talk from answer to end', async () => {
    const call = await create()
    expect(call).toMatchObject({ wait_seconds: null, talk_seconds: null, answered_at: null, ended_at: null })
    clock.advance(4_000)
    const ringing = await json<Call>(await move(call.id, 'ringing'))
    expect(Date.parse(ringing.ringing_at!) - Date.parse(call.initialized_at)).toBe(4_000)
    clock.advance(8_400)
    const answered = await json<Call>(await move(call.id, 'in_progress'))
    expect(answered).toMatchObject({ wait_seconds: 12, talk_seconds: null, answered_at: new Date(clock.now()).toISOString() })
    clock.advance(95_000)
    const ended = await json<Call>(await move(call.id, 'completed'))
    expect(ended).toMatchObject({ wait_seconds: 12, talk_seconds: 95, ended_at: new Date(clock.now()).toISOString() })
    expect(ended.updated_at).toEqual(ended.ended_at as string)
  })

  test('never answered: wait until the end, talk 0', async () => {
    const call = await create({ status: 'ringing' })
    clock.advance(31_000)
    expect(await json<Call>(await move(call.id, 'no_answer'))).toMatchObject({ wait_seconds: 31, talk_seconds: 0, answered_at: null })
  })

  test('answered straight from the queue', async () => {
    const call = await create()
    clock.advance(2_000)
    expect(await json<Call>(await move(call.id, 'in_progress'))).toMatchObject({ status: 'in_progress', ringing_at: null, wait_seconds: 2 })
  })
})

async function seedOtherUser(): Promise<string> {
  const row = await app.context.db.raw.get<{ id: string }>("SELECT id FROM users WHERE email = 'admin@globex.test'")
  return row!.id
}
