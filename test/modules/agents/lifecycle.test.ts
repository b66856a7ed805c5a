// The agent status lifecycle through the API, table-driven: every allowed and every refused PUT of the
// status (built-in and custom activities), logging in and out from every status, a supervisor setting an
// agent's status, and statuses that are no activity of the organization.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import {
  type Agent,
  agentEvents,
  agentsApp,
  CUSTOM,
  client,
  createCustomActivities,
  expectError,
  SETTABLE,
  STATUSES,
} from './agents-api.ts'

const { app, acme, globex } = await agentsApp()
await createCustomActivities(app, acme)
const { users } = acme
const { ok, login, logout, setStatus, get } = client(app, users.agent.auth)
const availableFlag = (status: string) => status === 'available' || (status in CUSTOM && CUSTOM[status as keyof typeof CUSTOM])

/** The agent in `status`, reached from a fresh login by allowed moves only. */
async function bringTo(status: string): Promise<Agent> {
  await logout()
  if (status === 'offline') return get('me')
  let agent = (await login()).agent
  if (status !== 'available') agent = await ok(setStatus('me', status))
  expect(agent.status).toBe(status)
  return agent
}

describe('PUT /agents/{id}/status', () => {
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const))
  test.each(pairs)('%s -> %s', async (from, to) => {
    const before = await bringTo(from)
    const eventCount = (await agentEvents(app, acme.org.id)).length
    const response = await setStatus('me', to)
    if (to === from) {
      expect(await ok(response)).toEqual(before)
      expect((await agentEvents(app, acme.org.id)).length).toBe(eventCount)
    } else if (SETTABLE[from]!.includes(to)) {
      const after = await ok(response)
      expect(after).toMatchObject({ status: to, available: availableFlag(to), status_reason: to === 'offline' ? 'logout' : 'set' })
      expect(after.session_id === null).toBe(to === 'offline')
      const events = (await agentEvents(app, acme.org.id)).slice(eventCount)
      const expected = to === 'offline' ? ['agent.logged_out', 'agent.status_changed'] : ['agent.status_changed']
      expect(events.map((e) => e.type)).toEqual(expected)
      expect(events.at(-1)!.data).toEqual({ agent: after, from, to, reason: to === 'offline' ? 'logout' : 'set' })
    } else {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      // Both states are named.
      expect(error.message).toContain(from)
      expect(error.message).toContain(to)
      expect(await get('me')).toEqual(before)
      expect((await agentEvents(app, acme.org.id)).length).toBe(eventCount)
    }
  })
})

describe('login and logout', () => {
  test('login: offline -> available, with agent.logged_in then agent.status_changed (reason login)', async () => {
    await bringTo('offline')
    const eventCount = (await agentEvents(app, acme.org.id)).length
    const { agent, session } = await login()
    expect(agent).toMatchObject({ status: 'available', available: true, status_reason: 'login', session_id: session!.id })
    const events = (await agentEvents(app, acme.org.id)).slice(eventCount)
    expect(events.map((e) => [e.type, e.data.from, e.data.to, e.data.reason])).toEqual([
      ['agent.logged_in', undefined, undefined, undefined],
      ['agent.status_changed', 'offline', 'available', 'login'],
    ])
    expect(events[0]!.data).toEqual({ agent, session: session! })
  })

  test.each(STATUSES.filter((s) => s !== 'offline'))(
    'login while logged in (%s) changes nothing and answers the open session',
    async (status) => {
      const before = await bringTo(status)
      const eventCount = (await agentEvents(app, acme.org.id)).length
      const again = await login()
      expect(again.agent).toEqual(before)
      expect(again.session).toMatchObject({ id: before.session_id, logout_at: null })
      expect((await agentEvents(app, acme.org.id)).length).toBe(eventCount)
    },
  )

  test.each(STATUSES.filter((s) => s !== 'offline'))(
    'logout from %s: offline, session ended, agent.logged_out then agent.status_changed',
    async (status) => {
      const before = await bringTo(status)
      const eventCount = (await agentEvents(app, acme.org.id)).length
      const { agent, session } = await logout()
      expect(agent).toMatchObject({ status: 'offline', available: false, status_reason: 'logout', session_id: null })
      expect(session).toMatchObject({ id: before.session_id, logout_reason: 'logout', duration_seconds: 0 })
      const events = (await agentEvents(app, acme.org.id)).slice(eventCount)
      expect(events.map((e) => [e.type, e.data.from, e.data.to, e.data.reason])).toEqual([
        ['agent.logged_out', undefined, undefined, 'logout'],
        ['agent.status_changed', status, 'offline', 'logout'],
      ])
    },
  )

  test('logout while logged out changes nothing (session null)', async () => {
    const before = await bringTo('offline')
    const eventCount = (await agentEvents(app, acme.org.id)).length
    expect(await logout()).toEqual({ agent: before, session: null })
    expect((await agentEvents(app, acme.org.id)).length).toBe(eventCount)
  })
})

describe('a supervisor sets an agent status', () => {
  const supervisor = client(app, users.supervisor.auth)
  const id = users.agent.user.id

  test('allowed moves as for the agent; offline logs the agent out with reason supervisor', async () => {
    await bringTo('available')
    expect(await supervisor.ok(supervisor.setStatus(id, 'break'))).toMatchObject({ status: 'break', status_reason: 'set' })
    await expectError(await supervisor.setStatus(id, 'busy'), 409, 'INVALID_STATE_TRANSITION')
    const eventCount = (await agentEvents(app, acme.org.id)).length
    const off = await supervisor.ok(supervisor.setStatus(id, 'offline'))
    expect(off).toMatchObject({ status: 'offline', status_reason: 'supervisor', session_id: null })
    const events = (await agentEvents(app, acme.org.id)).slice(eventCount)
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([
      ['agent.logged_out', 'supervisor'],
      ['agent.status_changed', 'supervisor'],
    ])
    expect(events[0]!.data.session).toMatchObject({ logout_reason: 'supervisor' })
    // Only the agent itself logs in.
    const error = await expectError(await supervisor.setStatus(id, 'available'), 409, 'INVALID_STATE_TRANSITION')
    expect(error.message).toBe(
      'An offline agent cannot become available: it logs in first (POST /api/v1/agents/me/login), which makes it available',
    )
  })
})

describe('statuses that are no activity of the organization', () => {
  test('an unknown key, or another organization’s custom activity, is 400 naming status', async () => {
    await client(app, globex.users.admin.auth).ok(
      client(app, globex.users.admin.auth).send('POST', '/api/v1/agent-activities', undefined, {
        key: 'lunch',
        name: 'Lunch',
        available: false,
      }),
      201,
    )
    await bringTo('available')
    for (const status of ['lunch', 'nonexistent']) await expectError(await setStatus('me', status), 400, 'VALIDATION_FAILED', 'status')
    await expectError(await setStatus('me', 'Not A Key'), 400, 'VALIDATION_FAILED', 'status')
    expect((await get('me')).status).toBe('available')
  })

  test('a refused move is refused on the same terms whoever asks', async () => {
    await bringTo('break')
    const response = await client(app, users.admin.auth).setStatus(users.agent.user.id, 'wrap_up')
    const error = await json<{ message: string }>(response)
    expect(response.status).toBe(409)
    expect(error.message).toBe('An agent in break cannot become wrap_up; it can become available, offline')
  })
})
