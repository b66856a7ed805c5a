// The agent.* events reach a real HTTPS receiver subscribed to them: login (agent.logged_in, then
// agent.status_changed), a status set by the agent, capacity busy and back through tickets, a logout,
// an idle logout by the cron loop — each body the stored event byte for byte, signed, with the full agent
// under data.agent; a receiver subscribed to one type gets only that type; a refused change sends nothing.
import { createHmac } from 'node:crypto'
import { afterAll, expect, test } from 'bun:test'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { allowWebhookCidrs } from '../webhooks/allow.ts'
import { type AgentEvent, agentsApp, client } from './agents-api.ts'

const SECRET = 'a-secret-of-16-chars-or-more'
const receiver = await startReceiver()
// A fake clock starting now: the receiver's side checks signed timestamps against its own clock.
// The app's own sender (the cron loop's tick runs it too) trusts the receiver's certificate.
const { app, acme } = await agentsApp({ AGENT_IDLE_TIMEOUT: '600' }, { clock: new FakeClock(Date.now()), webhookCa: receiver.ca })
await allowWebhookCidrs(app, acme.org.id, '127.0.0.0/8')
const dispatcher = app.webhooks
afterAll(() => receiver.stop())
const { users } = acme
const admin = client(app, users.admin.auth)
const agent = client(app, users.agent.auth)
const agentId = users.agent.user.id

test('every agent event is delivered, signed, with the full agent', async () => {
  for (const [path, events] of [
    ['/all', ['agent.*']],
    ['/status', ['agent.status_changed']],
  ] as const)
    await admin.ok(admin.send('POST', '/api/v1/webhooks', undefined, { url: receiver.url(path), events, secret: SECRET }), 201)

  const { agent: loggedIn, session } = await agent.login()
  const onBreak = await agent.ok(agent.setStatus('me', 'break'))
  // Refused: nothing recorded, nothing sent.
  expect((await agent.setStatus('me', 'busy')).status).toBe(409)
  await agent.ok(agent.setStatus('me', 'available'))
  await admin.ok(admin.patch(agentId, { max_concurrent: 1 }))
  const ticket = await admin.ok<{ id: string }>(
    admin.send('POST', '/api/v1/tickets', undefined, { subject: 'Full', assignee_id: agentId }),
    201,
  )
  await admin.ok(admin.send('PATCH', `/api/v1/tickets/${ticket.id}`, undefined, { status: 'solved' }))
  const { agent: loggedOut } = await agent.logout()
  await agent.login()
  // Idle: the cron loop logs the agent out.
  app.clock.advance(601_000)
  await app.context.scheduler.tick()

  await dispatcher.pump()
  await dispatcher.settled()
  const stored = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type LIKE 'agent.%' ORDER BY id")
  const bodiesAt = (path: string) =>
    receiver.received
      .filter((r) => r.path === path)
      .map((r) => r.body)
      .sort()
  expect(bodiesAt('/all')).toEqual(stored.map((e) => e.body).sort())
  const events = stored.map((e) => JSON.parse(e.body) as AgentEvent)
  expect(events.map((e) => [e.type, e.data.from, e.data.to, e.data.reason])).toEqual([
    ['agent.logged_in', undefined, undefined, undefined],
    ['agent.status_changed', 'offline', 'available', 'login'],
    ['agent.status_changed', 'available', 'break', 'set'],
    ['agent.status_changed', 'break', 'available', 'set'],
    ['agent.status_changed', 'available', 'busy', 'capacity'],
    ['agent.status_changed', 'busy', 'available', 'capacity'],
    ['agent.logged_out', undefined, undefined, 'logout'],
    ['agent.status_changed', 'available', 'offline', 'logout'],
    ['agent.logged_in', undefined, undefined, undefined],
    ['agent.status_changed', 'offline', 'available', 'login'],
    ['agent.logged_out', undefined, undefined, 'idle'],
    ['agent.status_changed', 'available', 'offline', 'idle'],
  ])
  expect(bodiesAt('/status')).toEqual(
    stored
      .filter((_, i) => events[i]!.type === 'agent.status_changed')
      .map((e) => e.body)
      .sort(),
  )
  expect(events[0]!.data).toEqual({ agent: loggedIn, session: session! })
  expect(events[2]!.data).toEqual({ agent: onBreak, from: 'available', to: 'break', reason: 'set' })
  expect(events[4]!.data.agent).toMatchObject({ id: agentId, status: 'busy', current_load: 1, max_concurrent: 1 })
  expect(events[6]!.data).toMatchObject({ agent: loggedOut, reason: 'logout', session: { id: session!.id, logout_reason: 'logout' } })
  expect(events[10]!.data.agent).toMatchObject({ status: 'offline', status_reason: 'idle' })
  for (const event of events)
    expect(event.data.agent.user).toEqual({ id: agentId, name: 'agent of acme', email: 'agent@acme.test', role: 'agent' })

  for (const request of receiver.received) {
    expect(request.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`)
    expect(request.headers['webhook-id']).toBe((JSON.parse(request.body) as AgentEvent).id)
  }
})
