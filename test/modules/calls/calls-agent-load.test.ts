// A call's agent and status count in the agent's load, in the call's own transaction (the agents
// module's refreshAgentLoadInTx): an active call assigned to an agent at capacity makes it busy
// (agent.status_changed), and the call ending, or moving to another agent, frees it again.
import { expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Call, callsApp, callsClient } from './calls-api.ts'

const { app, acme } = await callsApp()
const { users } = acme
const admin = callsClient(app, users.admin.auth)
const agent = callsClient(app, users.agent.auth)

interface Agent {
  status: string
  current_load: number
}

const agentNow = async (): Promise<Agent> => json<Agent>(await agent.send('GET', '/api/v1/agents/me'))

test('active calls count in the load; at capacity the agent is busy, and available again when the call ends or moves on', async () => {
  expect((await agent.send('POST', '/api/v1/agents/me/login', undefined, {})).status).toBe(200)
  expect((await admin.send('PATCH', `/api/v1/agents/${users.agent.user.id}`, undefined, { max_concurrent: 1 })).status).toBe(200)
  expect(await agentNow()).toMatchObject({ status: 'available', current_load: 0 })

  const first = await agent.create({ agent_id: users.agent.user.id })
  expect(await agentNow()).toMatchObject({ status: 'busy', current_load: 1 })
  await json<Call>(await agent.move(first.id, 'in_progress'))
  expect(await agentNow()).toMatchObject({ status: 'busy', current_load: 1 })
  await json<Call>(await agent.move(first.id, 'completed'))
  expect(await agentNow()).toMatchObject({ status: 'available', current_load: 0 })

  // Answering an unassigned call takes it; a transfer to a queue gives it back.
  const second = await admin.create()
  expect(await agentNow()).toMatchObject({ current_load: 0 })
  await agent.move(second.id, 'in_progress')
  expect(await agentNow()).toMatchObject({ status: 'busy', current_load: 1 })
  await admin.send('POST', `/api/v1/calls/${second.id}/transfer`, undefined, { to: { queue: 'overflow' } })
  expect(await agentNow()).toMatchObject({ status: 'available', current_load: 0 })

  // Each move made by a call is an agent.status_changed of the capacity rule.
  const changes = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type = 'agent.status_changed' ORDER BY id")
  const moves = changes.map((e) => JSON.parse(e.body).data as { from: string; to: string; reason: string })
  expect(moves.filter((m) => m.reason === 'capacity').map((m) => `${m.from}->${m.to}`)).toEqual([
    'available->busy',
    'busy->available',
    'available->busy',
    'busy->available',
  ])
})
