// Who may do what with calls: the permissions of each role, an agent's view (its own and unassigned
// calls; any other is 404, as another organization's is), an agent taking calls only for itself (403),
// and no credential at all (401).
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Call, callsApp, callsClient, expectError } from './calls-api.ts'

const { app, acme, globex } = await callsApp()
const { users } = acme
const admin = callsClient(app, users.admin.auth)
const agentId = users.agent.user.id
const supervisorId = users.supervisor.user.id
const NEW_CALL = { direction: 'inbound', from: '+14155550123', to: '+14155550199' }

describe('roles', () => {
  test('a viewer reads calls and changes none', async () => {
    const call = await admin.create()
    const viewer = users.viewer.auth
    expect((await admin.send('GET', `/api/v1/calls/${call.id}`, viewer)).status).toBe(200)
    expect((await admin.send('GET', '/api/v1/calls', viewer)).status).toBe(200)
    await expectError(await admin.send('POST', '/api/v1/calls', viewer, NEW_CALL), 403, 'INSUFFICIENT_PERMISSIONS')
    for (const op of ['ring', 'answer', 'end'])
      await expectError(await admin.send('POST', `/api/v1/calls/${call.id}/${op}`, viewer, {}), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await admin.send('POST', `/api/v1/calls/${call.id}/transfer`, viewer, { to: { queue: 'x' } }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(await admin.send('PATCH', `/api/v1/calls/${call.id}`, viewer, { ticket_id: null }), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test('a supervisor handles every call but creates none (no call:create)', async () => {
    const call = await admin.create({ agent_id: agentId })
    const supervisor = users.supervisor.auth
    await expectError(await admin.send('POST', '/api/v1/calls', supervisor, NEW_CALL), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await json<Call>(await admin.move(call.id, 'in_progress', supervisor))).agent_id).toBe(agentId)
    const moved = await admin.send('POST', `/api/v1/calls/${call.id}/transfer`, supervisor, { to: { agent_id: supervisorId } })
    expect((await json<Call>(moved)).agent_id).toBe(supervisorId)
  })

  test('no credential: 401', async () => {
    const call = await admin.create()
    for (const [method, path] of [
      ['GET', '/api/v1/calls'],
      ['GET', `/api/v1/calls/${call.id}`],
      ['POST', `/api/v1/calls/${call.id}/answer`],
    ] as const)
      await expectError(await admin.send(method, path, {}, method === 'POST' ? {} : undefined), 401, 'UNAUTHENTICATED')
  })
})

describe("an agent's view", () => {
  const agent = callsClient(app, users.agent.auth)

  test('it sees its own and unassigned calls; another agent’s are 404 to it, in every operation', async () => {
    const own = await admin.create({ agent_id: agentId })
    const unassigned = await admin.create()
    const others = await admin.create({ agent_id: supervisorId })
    expect((await agent.get(own.id)).id).toBe(own.id)
    expect((await agent.get(unassigned.id)).id).toBe(unassigned.id)
    const listed = (await json<{ calls: Call[] }>(await agent.send('GET', '/api/v1/calls?page_size=100'))).calls.map((c) => c.id)
    expect(listed).toContain(own.id)
    expect(listed).toContain(unassigned.id)
    expect(listed).not.toContain(others.id)
    expect(listed.length).toBe(
      (await json<{ calls: Call[] }>(await admin.send('GET', '/api/v1/calls?agent_id=none&page_size=100'))).calls.length +
        (await json<{ calls: Call[] }>(await admin.send('GET', `/api/v1/calls?agent_id=${agentId}&page_size=100`))).calls.length,
    )
    await expectError(await agent.send('GET', `/api/v1/calls/${others.id}`), 404, 'NOT_FOUND')
    for (const op of ['ring', 'answer', 'end'])
      await expectError(await agent.send('POST', `/api/v1/calls/${others.id}/${op}`, undefined, {}), 404, 'NOT_FOUND')
    await expectError(await agent.send('POST', `/api/v1/calls/${others.id}/transfer`, undefined, { to: { queue: 'x' } }), 404, 'NOT_FOUND')
    await expectError(await agent.send('PATCH', `/api/v1/calls/${others.id}`, undefined, { ticket_id: null }), 404, 'NOT_FOUND')
    expect(await admin.get(others.id)).toEqual(others)
  })

  test('it takes calls only for itself (403), and answering an unassigned call makes it its own', async () => {
    await expectError(
      await agent.send('POST', '/api/v1/calls', undefined, { ...NEW_CALL, agent_id: supervisorId }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect((await agent.create({ agent_id: agentId })).agent_id).toBe(agentId)
    const unassigned = await agent.create()
    expect(unassigned.agent_id).toBeNull()
    await expectError(await agent.move(unassigned.id, 'ringing', undefined, { agent_id: supervisorId }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await agent.move(unassigned.id, 'in_progress', undefined, { agent_id: supervisorId }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect((await agent.get(unassigned.id)).status).toBe('queued')
    const answered = await json<Call>(await agent.move(unassigned.id, 'in_progress'))
    expect(answered.agent_id).toBe(agentId)
  })

  test('it may hand its call on to another agent, which it then no longer sees', async () => {
    const call = await agent.callIn('in_progress')
    expect(call.agent_id).toBe(agentId)
    const moved = await agent.send('POST', `/api/v1/calls/${call.id}/transfer`, undefined, { to: { agent_id: supervisorId } })
    expect((await json<Call>(moved)).agent_id).toBe(supervisorId)
    await expectError(await agent.send('GET', `/api/v1/calls/${call.id}`), 404, 'NOT_FOUND')
  })
})

describe('another organization', () => {
  test('its calls are 404, exactly like a missing one, in every operation', async () => {
    const theirs = await callsClient(app, globex.users.admin.auth).create()
    const missing = 'cal_01KAX3M6W9P8T2V5G7H4J3C1QZ'
    for (const id of [theirs.id, missing]) {
      const error = await expectError(await admin.send('GET', `/api/v1/calls/${id}`), 404, 'NOT_FOUND')
      expect(error.message).toBe('No such call')
      for (const op of ['ring', 'answer', 'end'])
        await expectError(await admin.send('POST', `/api/v1/calls/${id}/${op}`, undefined, {}), 404, 'NOT_FOUND')
      await expectError(await admin.send('POST', `/api/v1/calls/${id}/transfer`, undefined, { to: { queue: 'x' } }), 404, 'NOT_FOUND')
      await expectError(await admin.send('PATCH', `/api/v1/calls/${id}`, undefined, { ticket_id: null }), 404, 'NOT_FOUND')
    }
    const listed = (await json<{ calls: Call[] }>(await admin.send('GET', '/api/v1/calls?page_size=100'))).calls.map((c) => c.id)
    expect(listed).not.toContain(theirs.id)
  })
})
