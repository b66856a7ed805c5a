// Engagement sessions written at once on two instances (PostgreSQL; one app on SQLite): the automatic
// routing claims an agent's place on its locked row (never past capacity, the rest queued), a session's
// row is locked by every verb that moves, assigns or messages it (one close, one wake-up, one load
// counting it), and an agent's load is recounted under its row's lock.
import { afterEach, describe, expect, test } from 'bun:test'
import type { SeededUser } from '../helpers/seed.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'
import { agentOf, audited, count, eventsAbout, newAgents, split, statusesOf } from './contact-centre.ts'

const SLOW_MS = 60_000
const ROUNDS = 3
const cluster = await makeCluster()
const { send, many, instances } = cluster
const contactId = (await json<{ id: string }>(await send('POST', '/api/v1/contacts', { name: 'Grace' }))).id

interface Session {
  id: string
  status: string
  assignee_id: string | null
}
const create = (extra: Record<string, unknown> = {}) =>
  send('POST', '/api/v1/engagements', { contact_id: contactId, channel: 'chat', ...extra })
const op = (id: string, operation: string, body: unknown = {}) => send('POST', `/api/v1/engagements/${id}/${operation}`, body)
const bodies = (responses: Response[]) => Promise.all(responses.map((r) => json<Session>(r)))
const loads = async (agents: SeededUser[]) => Promise.all(agents.map(async (a) => (await agentOf(cluster, a.user.id)).current_load))
const closeAll = async (sessions: Session[]) => {
  for (const s of sessions) if (s.status !== 'closed') expect((await op(s.id, 'close')).status).toBe(200)
}

// Each test's agents leave when it ends, so the next test's routing sees only its own.
let loggedIn: SeededUser[] = []
const agentsWith = async (capacities: (number | null)[]) => {
  loggedIn = await newAgents(cluster, capacities)
  return loggedIn
}
afterEach(async () => {
  for (const agent of loggedIn) expect((await send('POST', '/api/v1/agents/me/logout', {}, agent.auth)).status).toBe(200)
  loggedIn = []
})

/** Sessions per assignee among `sessions`. */
const perAgent = (sessions: Session[], agents: SeededUser[]) => {
  const assignees = sessions.map((s) => s.assignee_id)
  return agents.map((a) => count(assignees, a.user.id))
}

describe(`engagements at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    '16 sessions created at once with auto-routing over 9 places: every agent full, none past capacity, the rest queued',
    async () => {
      const capacities = [2, 3, 4]
      const agents = await agentsWith(capacities)
      for (let round = 0; round < ROUNDS; round++) {
        const responses = await many(WRITERS, () => create({ assign: 'auto' }))
        statusesOf(responses, [201])
        const sessions = await bodies(responses)
        const statuses = sessions.map((s) => s.status)
        expect([count(statuses, 'active'), count(statuses, 'queued')]).toEqual([9, WRITERS - 9])
        expect(perAgent(sessions, agents)).toEqual(capacities)
        expect(await loads(agents)).toEqual(capacities)
        for (const agent of agents) expect((await agentOf(cluster, agent.user.id)).status).toBe('busy')
        await closeAll(sessions)
        expect(await loads(agents)).toEqual([0, 0, 0])
      }
    },
    SLOW_MS,
  )

  test(
    '16 queued sessions assigned "auto" at once over 9 places: 9 taken, 7 refused 409, none past capacity',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        // Queued while nobody is logged in; the agents come after.
        const created = await many(WRITERS, () => create())
        statusesOf(created, [201])
        const queued = await bodies(created)
        const capacities = [4, 3, 2]
        const agents = await agentsWith(capacities)
        const responses = await many(WRITERS, (i) => op(queued[i]!.id, 'assign', { assignee_id: 'auto' }))
        expect(count(statusesOf(responses, [200, 409]), 200)).toBe(9)
        const assigned = await bodies(responses.filter((r) => r.status === 200))
        expect(perAgent(assigned, agents)).toEqual(capacities)
        expect(await loads(agents)).toEqual(capacities)
        await closeAll(queued)
        for (const agent of agents) expect((await send('POST', '/api/v1/agents/me/logout', {}, agent.auth)).status).toBe(200)
        loggedIn = []
      }
    },
    SLOW_MS,
  )

  test(
    "one session closed and wrapped up at once: one close, one engagement.closed, its agent's load back to 0",
    async () => {
      const [agent] = await agentsWith([null])
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await json<Session>(await create({ assignee_id: agent!.user.id }))
        const closes = (i: number) => i % 2 === 0
        const responses = await many(WRITERS, (i) => op(id, closes(i) ? 'close' : 'wrap-up'))
        const [closed, wrapped] = split(statusesOf(responses, [200, 409]), closes)
        expect(count(closed, 200)).toBe(1)
        expect(count(wrapped, 200)).toBeLessThanOrEqual(1)
        expect((await json<Session>(await send('GET', `/api/v1/engagements/${id}`))).status).toBe('closed')
        expect(count(await eventsAbout(cluster, 'engagement', id), 'engagement.closed')).toBe(1)
        expect(await loads([agent!])).toEqual([0])
      }
    },
    SLOW_MS,
  )

  test(
    'one session handed to four agents at once: one of them has it, and only its load counts it',
    async () => {
      const agents = await agentsWith([null, null, null, null])
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await json<Session>(await create())
        const responses = await many(WRITERS, (i) => op(id, 'assign', { assignee_id: agents[i % 4]!.user.id }))
        statusesOf(responses, [200])
        const { assignee_id } = await json<Session>(await send('GET', `/api/v1/engagements/${id}`))
        expect(await loads(agents)).toEqual(agents.map((a) => (a.user.id === assignee_id ? 1 : 0)))
        expect((await op(id, 'close')).status).toBe(200)
      }
    },
    SLOW_MS,
  )

  test(
    'inbound messages to a snoozed session at once: every message kept, the session woken once',
    async () => {
      const [agent] = await agentsWith([null])
      const until = new Date(instances[0]!.clock.now() + 3_600_000).toISOString()
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await json<Session>(await create({ assignee_id: agent!.user.id }))
        expect((await op(id, 'snooze', { until })).status).toBe(200)
        const responses = await many(WRITERS, (i) => op(id, 'messages', { direction: 'in', body: `hello ${i}` }))
        statusesOf(responses, [201])
        const ids = new Set((await Promise.all(responses.map((r) => json<{ engagement_id: string }>(r)))).map((m) => m.engagement_id))
        expect([...ids]).toEqual([id])
        expect((await json<Session>(await send('GET', `/api/v1/engagements/${id}`))).status).toBe('active')
        expect(await audited(cluster, 'engagement.woken', id)).toBe(1)
        expect((await op(id, 'close')).status).toBe(200)
      }
    },
    SLOW_MS,
  )
})
