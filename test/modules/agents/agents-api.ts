// What the agents tests share: an app with two organizations, requests as a client sends them, the agent
// lifecycle as the tests state it (independently of the module's table), and the agent.* events read
// back from the events table.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
import type { Auth } from '../../helpers/errors.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface Agent {
  id: string
  user: { id: string; name: string; email: string; role: string }
  status: string
  available: boolean
  status_reason: string | null
  status_changed_at: string
  session_id: string | null
  max_concurrent: number | null
  current_load: number
  auto_offline: boolean
  skills: string[]
  teams: string[]
  last_seen_at: string | null
  created_at: string
  updated_at: string
}

export interface AgentSession {
  id: string
  agent_id: string
  login_at: string
  logout_at: string | null
  duration_seconds: number | null
  logout_reason: string | null
  ip: string | null
  user_agent: string | null
}

export interface AgentEvent {
  id: string
  type: string
  created_at: string
  organization_id: string
  data: { agent: Agent; from?: string; to?: string; reason?: string; session?: AgentSession }
}

/** Custom activities every lifecycle test organization has: one unavailable, one available. */
export const CUSTOM = { training: false, phone_only: true } as const

/** Where PUT /status may take an agent (besides staying), as the research §2.3 has it. */
export const SETTABLE: Record<string, string[]> = {
  offline: [],
  available: ['busy', 'break', 'wrap_up', 'training', 'phone_only', 'offline'],
  busy: ['available', 'break', 'wrap_up', 'training', 'phone_only', 'offline'],
  break: ['available', 'offline'],
  wrap_up: ['available', 'offline'],
  training: ['available', 'offline'],
  phone_only: ['available', 'offline'],
}
export const STATUSES = Object.keys(SETTABLE)

export async function agentsApp(settings: Parameters<typeof makeTestApp>[0] = {}, options: Parameters<typeof makeTestApp>[1] = {}) {
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...settings }, options)
  afterAll(() => app.close())
  return { app, acme: await seedOrganization(app, 'acme'), globex: await seedOrganization(app, 'globex') }
}

export function client(app: TestApp, defaultAuth: Auth) {
  const send = (method: string, path: string, auth: Auth = defaultAuth, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ok = async <T = Agent>(response: Response | Promise<Response>, status = 200): Promise<T> => {
    const got = await response
    const body = await json<T>(got)
    expect({ status: got.status, body }).toMatchObject({ status })
    return body
  }
  const login = (auth: Auth = defaultAuth) =>
    ok<{ agent: Agent; session: AgentSession | null }>(send('POST', '/api/v1/agents/me/login', auth))
  const logout = (auth: Auth = defaultAuth) =>
    ok<{ agent: Agent; session: AgentSession | null }>(send('POST', '/api/v1/agents/me/logout', auth))
  const setStatus = (id: string, status: string, auth: Auth = defaultAuth) => send('PUT', `/api/v1/agents/${id}/status`, auth, { status })
  const get = (id: string, auth: Auth = defaultAuth) => ok(send('GET', `/api/v1/agents/${id}`, auth))
  const patch = (id: string, body: unknown, auth: Auth = defaultAuth) => send('PATCH', `/api/v1/agents/${id}`, auth, body)
  return { send, ok, login, logout, setStatus, get, patch }
}

/** The agent.* events of an organization recorded so far, oldest first. */
export async function agentEvents(app: TestApp, organizationId: string, agentId?: string): Promise<AgentEvent[]> {
  const rows = await app.context.db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE organization_id = ? AND type LIKE 'agent.%' ORDER BY id",
    [organizationId],
  )
  const events = rows.map((row) => JSON.parse(row.body) as AgentEvent)
  return agentId === undefined ? events : events.filter((event) => event.data.agent.id === agentId)
}

/** The custom activities of CUSTOM, created by the organization's admin. */
export async function createCustomActivities(app: TestApp, org: SeededOrg): Promise<void> {
  const { ok, send } = client(app, org.users.admin.auth)
  for (const [key, available] of Object.entries(CUSTOM))
    await ok(send('POST', '/api/v1/agent-activities', undefined, { key, name: key.replace('_', ' '), available }), 201)
}
