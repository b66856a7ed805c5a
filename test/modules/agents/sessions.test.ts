// Agent sessions: each login to logout is one session with its user agent, times and duration; logging
// in again while logged in opens none; GET /agents/{id}/sessions lists them newest first, keyset-paginated,
// filtered by login time, its page token bound to the agent.
import { expect, test } from 'bun:test'
import { agentsApp, type AgentSession, client, expectError } from './agents-api.ts'

const { app, acme } = await agentsApp()
const { users } = acme
const agentId = users.agent.user.id
const agent = client(app, users.agent.auth)
const supervisor = client(app, users.supervisor.auth)
const sessions = (query = '', auth = users.supervisor.auth, id = agentId) =>
  supervisor.ok<{ sessions: AgentSession[]; next_page_token: string; total_count?: number }>(
    supervisor.send('GET', `/api/v1/agents/${id}/sessions${query}`, auth),
  )
const loginAs = (userAgent: string) =>
  agent.ok<{ session: AgentSession }>(agent.send('POST', '/api/v1/agents/me/login', undefined, undefined, { 'user-agent': userAgent }))

test('login opens a session, logout ends it with its duration; a second login while logged in opens none', async () => {
  const first = await loginAs('Softphone/2.1')
  expect(first.session).toEqual({
    id: expect.stringMatching(/^ags_[0-9A-Z]{26}$/),
    agent_id: agentId,
    login_at: new Date(app.clock.now()).toISOString(),
    logout_at: null,
    duration_seconds: null,
    logout_reason: null,
    // In-process requests have no peer address; the binary test sees 127.0.0.1.
    ip: null,
    user_agent: 'Softphone/2.1',
  })
  app.clock.advance(60_000)
  expect((await loginAs('Another/1.0')).session).toEqual(first.session)
  app.clock.advance(30_500)
  const ended = await agent.logout()
  expect(ended.session).toEqual({
    ...first.session,
    logout_at: new Date(app.clock.now()).toISOString(),
    duration_seconds: 91,
    logout_reason: 'logout',
  })
  expect((await sessions()).sessions).toEqual([ended.session!])
})

test('the list: newest first, paginated, filtered by login time, total on request', async () => {
  const started: string[] = []
  for (let i = 0; i < 4; i++) {
    app.clock.advance(3_600_000)
    started.push((await agent.login()).session!.login_at)
    app.clock.advance(60_000)
    await agent.logout()
  }
  const all = await sessions('?include_total=true')
  expect(all.total_count).toBe(5)
  expect(all.sessions.map((s) => s.login_at).slice(0, 4)).toEqual([...started].reverse())
  const page1 = await sessions('?page_size=2')
  expect(page1.sessions.map((s) => s.login_at)).toEqual(started.slice(2, 4).reverse())
  const page2 = await sessions(`?page_size=2&page_token=${encodeURIComponent(page1.next_page_token)}`)
  expect(page2.sessions.map((s) => s.login_at)).toEqual(started.slice(0, 2).reverse())
  const oldest = await sessions('?sort=login_at:asc&page_size=1')
  expect(oldest.sessions[0]!.logout_reason).toBe('logout')
  const window = await sessions(`?login_after=${started.at(0)}&login_before=${started.at(3)}`)
  expect(window.sessions.map((s) => s.login_at)).toEqual(started.slice(1, 3).reverse())
  await expectError(
    await supervisor.send('GET', `/api/v1/agents/${agentId}/sessions?login_after=yesterday`),
    400,
    'VALIDATION_FAILED',
    'login_after',
  )
  // A page token of one agent's sessions is refused for another's.
  const other = users.admin.user.id
  await expectError(
    await supervisor.send('GET', `/api/v1/agents/${other}/sessions?page_size=2&page_token=${encodeURIComponent(page1.next_page_token)}`),
    400,
    'INVALID_PAGE_TOKEN',
  )
})

test('an agent lists its own sessions (me), not another’s', async () => {
  expect((await agent.ok<{ sessions: AgentSession[] }>(agent.send('GET', '/api/v1/agents/me/sessions'))).sessions.length).toBe(5)
  await expectError(await agent.send('GET', `/api/v1/agents/${users.supervisor.user.id}/sessions`), 404, 'NOT_FOUND')
})
