// Request and response schemas of the agents endpoints (the Agent, AgentSession and AgentActivity components).
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { AGENT_LIST, AGENT_SESSION_LIST } from './store.ts'

export const ActivityKey = t.String({
  pattern: '^[a-z][a-z0-9_]{0,39}$',
  description: 'Lowercase letters, digits and underscores, starting with a letter; at most 40',
})
const Label = t.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: 'Stored trimmed and lowercased' })
const Labels = (what: string) => t.Array(Label, { maxItems: 50, description: `Up to 50 ${what}; stored lowercased, once each` })
const Time = t.String({ format: 'date-time' })

const USER_ID = 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ'
const SESSION_ID = 'ags_01KAX3P2D8R4V6X9Z1B3D5F7H9'

export const AGENT_EXAMPLE = {
  id: USER_ID,
  user: { id: USER_ID, name: 'Ada Agent', email: 'ada@example.com', role: 'agent' },
  status: 'available',
  available: true,
  status_reason: 'login',
  status_changed_at: '2026-01-15T09:00:00.000Z',
  session_id: SESSION_ID,
  max_concurrent: 5,
  current_load: 2,
  auto_offline: true,
  skills: ['billing', 'german'],
  teams: ['tier-1'],
  last_seen_at: '2026-01-15T09:42:00.000Z',
  created_at: '2026-01-10T08:00:00.000Z',
  updated_at: '2026-01-15T09:00:00.000Z',
}

export const AgentBody = t.Object(
  {
    id: t.String({ description: "The user's id: an agent is a user with agent fields" }),
    user: t.Object({ id: t.String(), name: t.String(), email: t.String(), role: t.String() }),
    status: t.String({ description: 'An activity key: offline, available, busy, break, wrap_up or a custom one' }),
    available: t.Boolean({ description: "The activity's available flag: whether work may be routed to the agent" }),
    status_reason: t.Nullable(
      t.String({ description: 'Why: login, set, capacity, logout, idle, supervisor; null before the first login' }),
    ),
    status_changed_at: Time,
    session_id: t.Nullable(t.String({ description: 'The open agent session; null when offline' })),
    max_concurrent: t.Nullable(t.Integer({ description: 'Capacity; null: no limit' })),
    current_load: t.Integer({ description: 'Open tickets assigned to the agent plus its active calls' }),
    auto_offline: t.Boolean({ description: 'Logged out by the cron loop after AGENT_IDLE_TIMEOUT without a request' }),
    skills: t.Array(t.String()),
    teams: t.Array(t.String()),
    last_seen_at: t.Nullable(Time),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Agent', examples: [AGENT_EXAMPLE] },
)

export const AGENT_SESSION_EXAMPLE = {
  id: SESSION_ID,
  agent_id: USER_ID,
  login_at: '2026-01-15T09:00:00.000Z',
  logout_at: null,
  duration_seconds: null,
  logout_reason: null,
  ip: '203.0.113.7',
  user_agent: 'Softphone/2.1',
}

export const AgentSessionBody = t.Object(
  {
    id: t.String(),
    agent_id: t.String(),
    login_at: Time,
    logout_at: t.Nullable(Time),
    duration_seconds: t.Nullable(t.Integer({ description: 'From login to logout; null while open' })),
    logout_reason: t.Nullable(t.String({ description: 'logout, idle or supervisor' })),
    ip: t.Nullable(t.String()),
    user_agent: t.Nullable(t.String()),
  },
  { title: 'AgentSession', examples: [AGENT_SESSION_EXAMPLE] },
)

export const AgentWithSessionBody = t.Object(
  { agent: AgentBody, session: t.Nullable(AgentSessionBody, { description: 'null: a logout while logged out' }) },
  { title: 'AgentLogin' },
)

export const AgentIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64, description: 'A user id, or me' }) })

export const UpdateAgentBody = t.Object(
  {
    max_concurrent: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 1000, description: 'Capacity; null: no limit' }))),
    auto_offline: t.Optional(t.Boolean()),
    skills: t.Optional(Labels('skills')),
    teams: t.Optional(Labels('teams')),
  },
  { minProperties: 1, examples: [{ max_concurrent: 3, skills: ['billing'], teams: ['tier-1'] }] },
)

export const SetStatusBody = t.Object(
  { status: ActivityKey },
  { examples: [{ status: 'break' }, { status: 'available' }, { status: 'offline' }] },
)

export const AgentListQuery = t.Object({
  status: t.Optional(ActivityKey),
  available: t.Optional(t.Boolean()),
  team: t.Optional(Label),
  skill: t.Optional(Label),
  ...pagingQuery(AGENT_LIST.sorts),
})

export const AgentList = listResponse('agents', AgentBody)

export const AgentSessionListQuery = t.Object({
  login_after: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only sessions begun after it' })),
  login_before: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only sessions begun before it' })),
  ...pagingQuery(AGENT_SESSION_LIST.sorts),
})

export const AgentSessionList = listResponse('sessions', AgentSessionBody)
