// Who may do what with agents: supervisors and above read and change every agent of their organization;
// an agent reads and changes only its own profile and status (another agent is 404 to it, for reads
// and writes alike) and of its profile only auto_offline; viewers read; activities are created and
// deleted by admins; another organization's agent is 404 to everyone; no credential is 401.
import { describe, expect, test } from 'bun:test'
import type { Role } from '../../../src/modules/access/index.ts'
import { type Agent, agentsApp, client, expectError } from './agents-api.ts'

const { app, acme, globex } = await agentsApp()
const { users } = acme
const as = (role: Role) => client(app, users[role].auth)
const agentId = users.agent.user.id
const supervisorId = users.supervisor.user.id

describe('an agent: itself only', () => {
  const agent = as('agent')

  test('lists and reads only itself; another agent is 404', async () => {
    const list = await agent.ok<{ agents: Agent[] }>(agent.send('GET', '/api/v1/agents'))
    expect(list.agents.map((a) => a.id)).toEqual([agentId])
    expect((await agent.get(agentId)).id).toBe(agentId)
    expect((await agent.get('me')).id).toBe(agentId)
    await expectError(await agent.send('GET', `/api/v1/agents/${supervisorId}`), 404, 'NOT_FOUND')
    await expectError(await agent.send('GET', `/api/v1/agents/${supervisorId}/sessions`), 404, 'NOT_FOUND')
  })

  test('sets its own status; another agent’s is 404 (as missing)', async () => {
    await agent.login()
    expect(await agent.ok(agent.setStatus(agentId, 'break'))).toMatchObject({ status: 'break' })
    await as('supervisor').login()
    const refused = await expectError(await agent.setStatus(supervisorId, 'break'), 404, 'NOT_FOUND')
    const missing = await expectError(await agent.setStatus('usr_01KAX3M6W9P8T2V5G7H4J3C1QZ', 'break'), 404, 'NOT_FOUND')
    expect(refused.message).toBe(missing.message)
    expect((await as('supervisor').get('me')).status).toBe('available')
    await expectError(await agent.patch(supervisorId, { auto_offline: false }), 404, 'NOT_FOUND')
  })

  test('of its own profile changes only auto_offline (403 naming any other field)', async () => {
    expect(await agent.ok(agent.patch('me', { auto_offline: false }))).toMatchObject({ auto_offline: false })
    for (const body of [{ max_concurrent: 50 }, { skills: ['x'] }, { teams: ['y'] }, { auto_offline: true, max_concurrent: 9 }]) {
      const error = await expectError(await agent.patch('me', body), 403, 'INSUFFICIENT_PERMISSIONS')
      expect(error.message).toContain(Object.keys(body).at(-1)!)
    }
    expect(await agent.get('me')).toMatchObject({ auto_offline: false, max_concurrent: 5, skills: [], teams: [] })
  })

  test('does not create or delete activities', async () => {
    await expectError(
      await agent.send('POST', '/api/v1/agent-activities', undefined, { key: 'x', name: 'X', available: false }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(await agent.send('DELETE', '/api/v1/agent-activities/x'), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await agent.send('GET', '/api/v1/agent-activities')).status).toBe(200)
  })
})

describe('supervisors and above: every agent', () => {
  test.each(['supervisor', 'admin', 'super_admin'] as const)('%s reads, lists, sets status and changes profiles', async (role) => {
    const boss = as(role)
    const list = await boss.ok<{ agents: Agent[] }>(boss.send('GET', '/api/v1/agents?page_size=100'))
    expect(list.agents.map((a) => a.user.role).sort()).toEqual(['admin', 'agent', 'super_admin', 'supervisor'])
    expect(await boss.ok(boss.patch(agentId, { max_concurrent: 7 }))).toMatchObject({ max_concurrent: 7 })
    await as('agent').login()
    expect(await boss.ok(boss.setStatus(agentId, 'available'))).toMatchObject({ status: 'available' })
  })

  test('activities: admins and super admins create and delete; supervisors do not', async () => {
    const body = { key: 'coaching', name: 'Coaching', available: false }
    await expectError(await as('supervisor').send('POST', '/api/v1/agent-activities', undefined, body), 403, 'INSUFFICIENT_PERMISSIONS')
    await as('admin').ok(as('admin').send('POST', '/api/v1/agent-activities', undefined, body), 201)
    await expectError(await as('supervisor').send('DELETE', '/api/v1/agent-activities/coaching'), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await as('super_admin').send('DELETE', '/api/v1/agent-activities/coaching')).status).toBe(204)
  })
})

describe('viewers read', () => {
  const viewer = as('viewer')

  test('lists and reads every agent, changes nothing, and is no agent itself', async () => {
    const list = await viewer.ok<{ agents: Agent[] }>(viewer.send('GET', '/api/v1/agents?page_size=100'))
    expect(list.agents.length).toBe(4)
    expect((await viewer.get(agentId)).id).toBe(agentId)
    expect((await viewer.send('GET', `/api/v1/agents/${agentId}/sessions`)).status).toBe(200)
    expect((await viewer.send('GET', '/api/v1/agent-activities')).status).toBe(200)
    for (const [method, path, body] of [
      ['POST', '/api/v1/agents/me/login', undefined],
      ['POST', '/api/v1/agents/me/logout', undefined],
      ['PUT', `/api/v1/agents/${agentId}/status`, { status: 'break' }],
      ['PATCH', `/api/v1/agents/${agentId}`, { max_concurrent: 2 }],
      ['POST', '/api/v1/agent-activities', { key: 'v', name: 'V', available: true }],
    ] as const)
      await expectError(await viewer.send(method, path, undefined, body), 403, 'INSUFFICIENT_PERMISSIONS')
    // Not an agent role: no profile.
    await expectError(await viewer.send('GET', '/api/v1/agents/me'), 404, 'NOT_FOUND')
    await expectError(await as('admin').send('GET', `/api/v1/agents/${users.viewer.user.id}`), 404, 'NOT_FOUND')
  })
})

describe('another organization', () => {
  test('its agents are 404 to every role, for reads and writes; its lists never show them', async () => {
    const foreign = globex.users.agent.user.id
    await client(app, globex.users.agent.auth).login()
    for (const role of ['super_admin', 'supervisor', 'agent', 'viewer'] as const) {
      const c = as(role)
      await expectError(await c.send('GET', `/api/v1/agents/${foreign}`), 404, 'NOT_FOUND')
      await expectError(await c.send('GET', `/api/v1/agents/${foreign}/sessions`), 404, 'NOT_FOUND')
    }
    await expectError(await as('admin').setStatus(foreign, 'break'), 404, 'NOT_FOUND')
    await expectError(await as('admin').patch(foreign, { max_concurrent: 1 }), 404, 'NOT_FOUND')
    const list = await as('admin').ok<{ agents: Agent[] }>(as('admin').send('GET', '/api/v1/agents?page_size=100'))
    expect(list.agents.map((a) => a.id)).not.toContain(foreign)
    expect((await client(app, globex.users.agent.auth).get('me')).status).toBe('available')
  })

  test('its custom activities are neither listed nor deletable', async () => {
    const globexAdmin = client(app, globex.users.admin.auth)
    await globexAdmin.ok(
      globexAdmin.send('POST', '/api/v1/agent-activities', undefined, { key: 'siesta', name: 'Siesta', available: false }),
      201,
    )
    const listed = await as('admin').ok<{ activities: { key: string }[] }>(as('admin').send('GET', '/api/v1/agent-activities'))
    expect(listed.activities.map((a) => a.key)).not.toContain('siesta')
    await expectError(await as('admin').send('DELETE', '/api/v1/agent-activities/siesta'), 404, 'NOT_FOUND')
  })
})

test('no credential: 401 on every route', async () => {
  for (const [method, path, body] of [
    ['GET', '/api/v1/agents'],
    ['GET', `/api/v1/agents/${agentId}`],
    ['PATCH', `/api/v1/agents/${agentId}`, { auto_offline: true }],
    ['PUT', `/api/v1/agents/${agentId}/status`, { status: 'break' }],
    ['GET', `/api/v1/agents/${agentId}/sessions`],
    ['POST', '/api/v1/agents/me/login'],
    ['POST', '/api/v1/agents/me/logout'],
    ['GET', '/api/v1/agent-activities'],
    ['POST', '/api/v1/agent-activities', { key: 'x', name: 'X', available: true }],
    ['DELETE', '/api/v1/agent-activities/x'],
  ] as const) {
    const init = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    expect({ method, path, status: (await app.request(path, init)).status }).toEqual({ method, path, status: 401 })
  }
})
