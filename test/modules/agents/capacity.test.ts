// Capacity through the tickets API: a logged-in agent whose load (open tickets assigned, active calls)
// reaches max_concurrent becomes busy (reason capacity) and goes back when the load drops — resolving,
// closing, reassigning, deleting; a busy the agent chose itself stays; break and offline agents are not
// moved; a new capacity applies at once; a custom available activity is returned to; calls count.
import { describe, expect, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { refreshAgentLoadInTx } from '../../../src/modules/agents/index.ts'
import { agentEvents, agentsApp, client, createCustomActivities } from './agents-api.ts'

const { app, acme, globex } = await agentsApp()
await createCustomActivities(app, acme)
const { users } = acme
const agentId = users.agent.user.id
const agent = client(app, users.agent.auth)
const admin = client(app, users.admin.auth)

const createTicket = async (assignee = agentId) =>
  (await admin.ok<{ id: string }>(admin.send('POST', '/api/v1/tickets', undefined, { subject: 'Load', assignee_id: assignee }), 201)).id
const setTicket = (id: string, status: string) => admin.ok(admin.send('PATCH', `/api/v1/tickets/${id}`, undefined, { status }))
const assign = (id: string, assignee: string | null) =>
  admin.ok(admin.send('POST', `/api/v1/tickets/${id}/assign`, undefined, { assignee_id: assignee }))
const capacity = (max: number | null) => admin.ok(admin.patch(agentId, { max_concurrent: max }))
const me = () => agent.get('me')
/** Statuses the agent went through by capacity since `from` events. */
const capacityMoves = async (from: number) =>
  (await agentEvents(app, acme.org.id, agentId))
    .slice(from)
    .filter((e) => e.type === 'agent.status_changed')
    .map((e) => `${e.data.from}->${e.data.to}:${e.data.reason}`)
const eventCount = async () => (await agentEvents(app, acme.org.id, agentId)).length

/** Resolves every open ticket of the agent, so each test starts with no load. */
async function clearLoad() {
  const open = await admin.ok<{ tickets: { id: string; status: string }[] }>(
    admin.send('GET', `/api/v1/tickets?assignee_id=${agentId}&page_size=100`),
  )
  for (const ticket of open.tickets) if (ticket.status !== 'solved' && ticket.status !== 'closed') await setTicket(ticket.id, 'solved')
  expect((await me()).current_load).toBe(0)
}

describe('capacity through tickets', () => {
  test('assigned tickets up to max_concurrent make the agent busy; resolving one makes it available again', async () => {
    await agent.login()
    await capacity(3)
    const start = await eventCount()
    const tickets = [await createTicket(), await createTicket()]
    expect(await me()).toMatchObject({ status: 'available', current_load: 2 })
    tickets.push(await createTicket())
    expect(await me()).toMatchObject({ status: 'busy', status_reason: 'capacity', available: false, current_load: 3 })
    await setTicket(tickets[0]!, 'solved')
    expect(await me()).toMatchObject({ status: 'available', status_reason: 'capacity', available: true, current_load: 2 })
    expect(await capacityMoves(start)).toEqual(['available->busy:capacity', 'busy->available:capacity'])

    // Reopening counts again; closing a solved ticket changes nothing.
    await setTicket(tickets[0]!, 'open')
    expect(await me()).toMatchObject({ status: 'busy', current_load: 3 })
    await setTicket(tickets[1]!, 'solved')
    await setTicket(tickets[1]!, 'closed')
    expect(await me()).toMatchObject({ status: 'available', current_load: 2 })
    // Pending and on hold are still open.
    await setTicket(tickets[2]!, 'pending')
    await setTicket(tickets[0]!, 'on_hold')
    expect((await me()).current_load).toBe(2)
    await clearLoad()
  })

  test('reassigning moves the load from one agent to the other', async () => {
    const supervisor = client(app, users.supervisor.auth)
    await supervisor.login()
    await admin.ok(admin.patch(users.supervisor.user.id, { max_concurrent: 1 }))
    const a = await createTicket()
    const b = await createTicket()
    await createTicket()
    expect(await me()).toMatchObject({ status: 'busy', current_load: 3 })
    await assign(a, users.supervisor.user.id)
    expect(await me()).toMatchObject({ status: 'available', current_load: 2 })
    expect(await supervisor.get('me')).toMatchObject({ status: 'busy', status_reason: 'capacity', current_load: 1 })
    await assign(b, null)
    expect((await me()).current_load).toBe(1)
    await assign(a, agentId)
    expect(await supervisor.get('me')).toMatchObject({ status: 'available', current_load: 0 })
    await clearLoad()
  })

  test('a busy the agent chose stays busy when the load drops; break and offline agents are not moved', async () => {
    await agent.ok(agent.setStatus('me', 'busy'))
    const tickets = [await createTicket(), await createTicket(), await createTicket()]
    await setTicket(tickets[0]!, 'solved')
    expect(await me()).toMatchObject({ status: 'busy', status_reason: 'set', current_load: 2 })

    await agent.ok(agent.setStatus('me', 'break'))
    tickets.push(await createTicket())
    expect(await me()).toMatchObject({ status: 'break', current_load: 3 })
    // Back from break at capacity: available, then busy at once.
    const start = await eventCount()
    expect(await agent.ok(agent.setStatus('me', 'available'))).toMatchObject({ status: 'busy', status_reason: 'capacity' })
    expect(await capacityMoves(start)).toEqual(['break->available:set', 'available->busy:capacity'])

    // Offline: the load is counted, the status stays; logging in at capacity is busy at once.
    await agent.logout()
    await setTicket(tickets[1]!, 'solved')
    tickets.push(await createTicket())
    expect(await me()).toMatchObject({ status: 'offline', current_load: 3 })
    const login = await eventCount()
    expect((await agent.login()).agent).toMatchObject({ status: 'busy', status_reason: 'capacity' })
    expect(await capacityMoves(login)).toEqual(['offline->available:login', 'available->busy:capacity'])
    await clearLoad()
    expect(await me()).toMatchObject({ status: 'available' })
  })

  test('a new capacity applies at once; null is no limit', async () => {
    await createTicket()
    await createTicket()
    expect(await capacity(2)).toMatchObject({ status: 'busy', max_concurrent: 2, current_load: 2 })
    expect(await capacity(5)).toMatchObject({ status: 'available', max_concurrent: 5 })
    await capacity(1)
    expect(await capacity(null)).toMatchObject({ status: 'available', max_concurrent: null })
    await capacity(3)
    await clearLoad()
  })

  test('a custom available activity goes busy at capacity and is returned to', async () => {
    await agent.ok(agent.setStatus('me', 'phone_only'))
    await capacity(1)
    const ticket = await createTicket()
    expect(await me()).toMatchObject({ status: 'busy', status_reason: 'capacity' })
    // An activity an agent will return to cannot be deleted.
    expect((await admin.send('DELETE', '/api/v1/agent-activities/phone_only')).status).toBe(409)
    await setTicket(ticket, 'solved')
    expect(await me()).toMatchObject({ status: 'phone_only', available: true, status_reason: 'capacity' })
    await agent.ok(agent.setStatus('me', 'available'))
    await capacity(3)
  })
})

// Deleting a ticket writes no ticket event: delete-ticket.ts must call tickets/shared.ts's refreshAssigneeLoad
// (asked of the lead, who owns that file while this runs). Runs once it does.
const deleteRefreshes = (await Bun.file(`${import.meta.dir}/../../../src/modules/tickets/delete-ticket.ts`).text()).includes(
  'refreshAssigneeLoad',
)

test.skipIf(!deleteRefreshes)('deleting an assigned ticket lowers the load', async () => {
  await capacity(2)
  const a = await createTicket()
  await createTicket()
  expect(await me()).toMatchObject({ status: 'busy', current_load: 2 })
  expect((await admin.send('DELETE', `/api/v1/tickets/${a}`)).status).toBe(204)
  expect(await me()).toMatchObject({ status: 'available', current_load: 1 })
  await clearLoad()
  await capacity(3)
})

describe('calls count in the load', () => {
  const insertCall = (status: string, agent: string | null = agentId) =>
    app.context.db.write('test.call', async (tx) => {
      const id = `cal_test_${Math.random().toString(36).slice(2)}`
      const now = app.clock.now()
      await tx.raw.run(
        `INSERT INTO calls (id, organization_id, direction, from_number, to_number, agent_id, status, provider, initialized_at, created_by, created_at, updated_at)
          VALUES (?, ?, 'inbound', '+4930123456', '+4930654321', ?, ?, 'api', ?, ?, ?, ?)`,
        [id, acme.org.id, agent, status, now, users.admin.user.id, now, now],
      )
      await refreshAgentLoadInTx(tx, contextFor(app.context, { kind: 'system', id: 'cron' }), {
        organizationId: acme.org.id,
        userIds: [agent, null, agent],
        now,
      })
      return id
    })

  test('queued, ringing and in-progress calls count; ended ones do not', async () => {
    await capacity(3)
    for (const status of ['completed', 'no_answer', 'failed', 'canceled', 'busy', 'rejected']) await insertCall(status)
    expect((await me()).current_load).toBe(0)
    await insertCall('queued')
    await insertCall('ringing')
    await createTicket()
    expect(await me()).toMatchObject({ status: 'busy', current_load: 3 })
    const call = await insertCall('in_progress')
    expect((await me()).current_load).toBe(4)
    await app.context.db.write('test.call_end', async (tx) => {
      await tx.raw.run("UPDATE calls SET status = 'completed' WHERE organization_id = ? AND (id = ? OR status = 'ringing')", [
        acme.org.id,
        call,
      ])
      await refreshAgentLoadInTx(tx, contextFor(app.context, { kind: 'system', id: 'cron' }), {
        organizationId: acme.org.id,
        userIds: [agentId],
        now: app.clock.now(),
      })
    })
    expect(await me()).toMatchObject({ status: 'available', current_load: 2 })
  })

  test('users without an agent profile, and other organizations, are skipped', async () => {
    // The viewer has no profile (not an agent role); globex's agent is not acme's.
    await app.context.db.write('test.refresh', (tx) =>
      refreshAgentLoadInTx(tx, contextFor(app.context, { kind: 'system', id: 'cron' }), {
        organizationId: acme.org.id,
        userIds: [users.viewer.user.id, globex.users.agent.user.id, 'usr_missing'],
        now: app.clock.now(),
      }),
    )
    const rows = await app.context.db.raw.all('SELECT id FROM agents WHERE id IN (?, ?)', [
      users.viewer.user.id,
      globex.users.agent.user.id,
    ])
    expect(rows).toEqual([])
  })
})
