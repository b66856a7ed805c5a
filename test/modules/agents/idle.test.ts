// The idle logout on a fake clock (the binary test has it on the real one): the cron loop logs out a
// logged-in agent with auto_offline on whose last request (login, its sessions' and personal access
// tokens' last use) is AGENT_IDLE_TIMEOUT old — session ended (reason idle), offline, agent.logged_out
// then agent.status_changed; an agent that keeps making requests (by access token or by personal access
// token) stays in, as does one with auto_offline off; the run brings last_seen_at up to date.
import { describe, expect, test } from 'bun:test'
import { idleCheckIntervalMs, lastSeenIntervalMs } from '../../../src/modules/agents/index.ts'
import { type AgentSession, agentEvents, agentsApp, client } from './agents-api.ts'

const TIMEOUT_S = 1800
const { app, acme } = await agentsApp({ AGENT_IDLE_TIMEOUT: String(TIMEOUT_S) })
const { users } = acme
const idle = client(app, users.agent.auth)
const kept = client(app, users.admin.auth)
const manual = client(app, users.supervisor.auth)
const byToken = client(app, users.super_admin.auth)
const iso = (ms: number) => new Date(ms).toISOString()
const tick = () => app.context.scheduler.tick()
// Every check reads as the viewer: an agent's own read would be a request, a sign of life.
const viewer = client(app, users.viewer.auth)
const statusOf = async (id: string) => (await viewer.get(id)).status

describe('idle logout', () => {
  test('logs out the idle agent only, at the first run past the timeout', async () => {
    const pat = await byToken.ok<{ token: string }>(
      byToken.send('POST', '/api/v1/api-keys', undefined, { name: 'Softphone', expires_at: iso(app.clock.now() + 30 * 86_400_000) }),
      201,
    )
    const patAuth = { 'x-api-key': pat.token }
    const start = app.clock.now()
    for (const agent of [idle, kept, manual, byToken]) await agent.login()
    await manual.ok(manual.patch('me', { auto_offline: false }))

    // Half-way: the kept agent makes a request with its access token, the other with its personal access token.
    app.clock.advance(1000_000)
    await kept.ok(kept.send('GET', '/api/v1/me'))
    await byToken.ok(byToken.send('GET', '/api/v1/tickets', patAuth))
    await tick()
    expect(app.context.scheduler.status().agent_idle_logout).toMatchObject({ runs: 1, failures: 0 })
    expect(await statusOf(users.agent.user.id)).toBe('available')
    expect((await viewer.get(users.admin.user.id)).last_seen_at).toBe(iso(start + 1000_000))

    // Just short of the timeout nothing happens; once past it, the idle agent goes.
    app.clock.advance(TIMEOUT_S * 1000 - 1000_000 - 1000)
    await tick()
    expect(await statusOf(users.agent.user.id)).toBe('available')
    app.clock.advance(61_000)
    const events = (await agentEvents(app, acme.org.id)).length
    await tick()
    const after = await viewer.get(users.agent.user.id)
    expect(after).toMatchObject({ status: 'offline', status_reason: 'idle', session_id: null, last_seen_at: iso(start) })
    expect(await statusOf(users.admin.user.id)).toBe('available')
    expect(await statusOf(users.super_admin.user.id)).toBe('available')
    expect(await statusOf(users.supervisor.user.id)).toBe('available')

    const sessions = await idle.ok<{ sessions: AgentSession[] }>(idle.send('GET', '/api/v1/agents/me/sessions'))
    expect(sessions.sessions[0]).toMatchObject({ logout_reason: 'idle', logout_at: iso(app.clock.now()) })
    const recorded = (await agentEvents(app, acme.org.id)).slice(events)
    expect(recorded.map((e) => [e.type, e.data.agent.id, e.data.reason, e.data.from, e.data.to])).toEqual([
      ['agent.logged_out', users.agent.user.id, 'idle', undefined, undefined],
      ['agent.status_changed', users.agent.user.id, 'idle', 'available', 'offline'],
    ])
    expect(recorded[0]!.data).toEqual({ agent: after, reason: 'idle', session: sessions.sessions[0]! })
    const line = app.logs.records().findLast((r) => r.msg === 'cron' && r.task === 'agent_idle_logout')
    expect(line).toMatchObject({ logged_out: 1 })

    // Back: a new session.
    expect((await idle.login()).session!.id).not.toBe(sessions.sessions[0]!.id)
  })

  test('an agent that turned auto_offline off is never logged out; turned on again, it is', async () => {
    app.clock.advance(10 * TIMEOUT_S * 1000)
    await tick()
    expect(await statusOf(users.supervisor.user.id)).toBe('available')
    await manual.ok(manual.patch('me', { auto_offline: true }))
    app.clock.advance(61_000)
    await tick()
    // Its PATCH was a request: seen just now, so not yet.
    expect(await statusOf(users.supervisor.user.id)).toBe('available')
    app.clock.advance(TIMEOUT_S * 1000)
    await tick()
    expect(await statusOf(users.supervisor.user.id)).toBe('offline')
  })
})

test('the intervals follow AGENT_IDLE_TIMEOUT', () => {
  expect(idleCheckIntervalMs({ agentIdleTimeoutMs: 1_800_000, cronTickMs: 1000 })).toBe(60_000)
  expect(idleCheckIntervalMs({ agentIdleTimeoutMs: 8_000, cronTickMs: 100 })).toBe(2_000)
  expect(idleCheckIntervalMs({ agentIdleTimeoutMs: 1_000, cronTickMs: 1000 })).toBe(1_000)
  expect(lastSeenIntervalMs({ agentIdleTimeoutMs: 1_800_000 })).toBe(60_000)
  expect(lastSeenIntervalMs({ agentIdleTimeoutMs: 8_000 })).toBe(2_000)
  expect(lastSeenIntervalMs({ agentIdleTimeoutMs: 1_000 })).toBe(1_000)
  expect(app.context.scheduler.status().agent_idle_logout).toBeDefined()
})
