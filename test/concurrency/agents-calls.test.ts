// Agents and calls written at once on two instances (PostgreSQL; one app on SQLite): an agent's row is
// locked by every verb that reads and writes it (one session, one status chain, a true load), a call's
// by every step (one end, one event each), a custom activity's by an agent entering it and by its
// deletion; creations of activities count one after the other. Providers, settings and recordings:
// calls-providers.test.ts.
import { describe, expect, test } from 'bun:test'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'
import { agentMoves, agentOf, count, eventsAbout, newAgents, newAgentUsers, split, statusesOf } from './contact-centre.ts'

const SLOW_MS = 60_000
const ROUNDS = 3
const cluster = await makeCluster()
const { send, many, org, instances } = cluster
const agent = org.users.agent
const newCall = (extra: Record<string, unknown> = {}) =>
  send('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', ...extra })
const idOf = async (response: Response) => (await json<{ id: string }>(response)).id

describe(`agents at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'an agent logging in and out from many places at once: one session at a time, one login and one logout each',
    async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const logins = await many(WRITERS, () => send('POST', '/api/v1/agents/me/login', {}, agent.auth))
        statusesOf(logins, [200])
        const opened = await Promise.all(logins.map((r) => json<{ session: { id: string } }>(r)))
        expect(new Set(opened.map((body) => body.session.id)).size).toBe(1)
        statusesOf(await many(WRITERS, () => send('POST', '/api/v1/agents/me/logout', {}, agent.auth)), [200])
        const { sessions } = await json<{ sessions: { logout_at: string | null }[] }>(
          await send('GET', `/api/v1/agents/${agent.user.id}/sessions?page_size=100`),
        )
        expect([sessions.length, sessions.filter((s) => s.logout_at === null).length]).toEqual([round, 0])
        const events = await eventsAbout(cluster, 'agent', agent.user.id)
        expect([count(events, 'agent.logged_in'), count(events, 'agent.logged_out')]).toEqual([round, round])
      }
    },
    SLOW_MS,
  )

  test(
    'agents read for the first time from many places at once: one profile each, made once',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const users = await newAgentUsers(cluster, WRITERS / 2)
        const responses = await many(WRITERS, (i) =>
          i % 2 ? send('GET', '/api/v1/agents?page_size=100') : send('GET', `/api/v1/agents/${users[i >> 1]!.user.id}`),
        )
        statusesOf(responses, [200])
        const { agents } = await json<{ agents: { id: string }[] }>(await send('GET', '/api/v1/agents?page_size=100'))
        const ids = agents.map((a) => a.id)
        for (const user of users) expect(count(ids, user.user.id)).toBe(1)
      }
    },
    SLOW_MS,
  )

  test(
    'status changes of one agent at once: one move from each status, each event from the status it had',
    async () => {
      const [one] = await newAgents(cluster, [null])
      const id = one!.user.id
      for (let round = 0; round < ROUNDS; round++) {
        const before = (await agentMoves(cluster, id)).length
        const responses = await many(WRITERS, (i) => send('PUT', `/api/v1/agents/${id}/status`, { status: i % 2 ? 'break' : 'wrap_up' }))
        statusesOf(responses, [200, 409])
        const moves = await agentMoves(cluster, id)
        expect(moves.slice(before)).toEqual([{ from: 'available', to: (await agentOf(cluster, id)).status }])
        for (const [i, move] of moves.entries()) if (i > 0) expect(move.from).toBe(moves[i - 1]!.to)
        expect((await send('PUT', `/api/v1/agents/${id}/status`, { status: 'available' })).status).toBe(200)
      }
    },
    SLOW_MS,
  )

  test(
    'an activity deleted while agents enter it: never an agent in a deleted activity',
    async () => {
      const agents = await newAgents(cluster, Array(WRITERS / 2).fill(null))
      for (let round = 0; round < 2 * ROUNDS; round++) {
        const key = `lunch_${round}`
        expect((await send('POST', '/api/v1/agent-activities', { key, name: 'Lunch', available: false })).status).toBe(201)
        const deletes = (i: number) => i % 4 === 0 || i % 4 === 3
        const responses = await many(WRITERS, (i) =>
          deletes(i)
            ? send('DELETE', `/api/v1/agent-activities/${key}`)
            : send('PUT', `/api/v1/agents/${agents[i >> 1]!.user.id}/status`, { status: key }),
        )
        const [deleting, entering] = split(responses, deletes)
        const deleted = count(statusesOf(deleting, [204, 404, 409]), 204)
        const entered = count(statusesOf(entering, [200, 400]), 200)
        const inIt = (await Promise.all(agents.map((a) => agentOf(cluster, a.user.id)))).filter((a) => a.status === key)
        // Deleted: nobody is in it. Kept: every agent that entered it is there.
        expect([deleted, inIt.length]).toEqual(deleted === 1 ? [1, 0] : [0, entered])
        for (const a of inIt) expect((await send('PUT', `/api/v1/agents/${a.id}/status`, { status: 'available' })).status).toBe(200)
        if (deleted === 0) expect((await send('DELETE', `/api/v1/agent-activities/${key}`)).status).toBe(204)
      }
    },
    SLOW_MS,
  )

  test(
    'custom activities created at once: never more than 50, one per key',
    async () => {
      for (let i = 0; i < 46; i++)
        expect((await send('POST', '/api/v1/agent-activities', { key: `act_${i}`, name: 'A', available: false })).status).toBe(201)
      const responses = await many(WRITERS, (i) =>
        send('POST', '/api/v1/agent-activities', { key: `extra_${i % 8}`, name: 'E', available: true }),
      )
      expect(count(statusesOf(responses, [201, 409]), 201)).toBe(4)
      const { activities } = await json<{ activities: { built_in: boolean }[] }>(await send('GET', '/api/v1/agent-activities'))
      expect(activities.filter((a) => !a.built_in)).toHaveLength(50)
    },
    SLOW_MS,
  )
})

describe(`calls at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'calls given to one agent at once: its load counts each, busy at capacity, available when they end',
    async () => {
      const [taker] = await newAgents(cluster, [5])
      const id = taker!.user.id
      for (let round = 0; round < ROUNDS; round++) {
        const created = await many(WRITERS, () => newCall({ agent_id: id }))
        statusesOf(created, [201])
        expect(await agentOf(cluster, id)).toMatchObject({ current_load: WRITERS, status: 'busy', status_reason: 'capacity' })
        const ids = await Promise.all(created.map(idOf))
        statusesOf(await many(WRITERS, (i) => send('POST', `/api/v1/calls/${ids[i]}/end`, { status: 'canceled' })), [200])
        expect(await agentOf(cluster, id)).toMatchObject({ current_load: 0, status: 'available' })
      }
    },
    SLOW_MS,
  )

  test(
    'one call ended and changed at once: one end, one call.completed, nothing undone',
    async () => {
      const [taker] = await newAgents(cluster, [null])
      const contactId = await idOf(await send('POST', '/api/v1/contacts', { name: 'Grace' }))
      for (let round = 0; round < ROUNDS; round++) {
        const id = await idOf(await newCall({ agent_id: taker!.user.id }))
        expect((await send('POST', `/api/v1/calls/${id}/answer`, {})).status).toBe(200)
        const ends = (i: number) => i % 2 === 0
        const responses = await many(WRITERS, (i) =>
          ends(i)
            ? send('POST', `/api/v1/calls/${id}/end`, {})
            : send('PATCH', `/api/v1/calls/${id}`, { contact_id: i % 4 === 1 ? contactId : null }),
        )
        const [ending, changing] = split(responses, ends)
        expect(count(statusesOf(ending, [200, 409]), 200)).toBe(1)
        statusesOf(changing, [200])
        expect((await json<{ status: string }>(await send('GET', `/api/v1/calls/${id}`))).status).toBe('completed')
        expect(count(await eventsAbout(cluster, 'call', id), 'call.completed')).toBe(1)
        expect((await agentOf(cluster, taker!.user.id)).current_load).toBe(0)
      }
    },
    SLOW_MS,
  )
})
