// The agents module's tables as rows (Kysely): agent profiles, their skills and teams as an index
// table, the organization's custom activities, and agent sessions. Columns: src/db/migrations/0017_agents.sql.

/** A row of agents: one user's agent profile in its organization. */
export interface AgentsTable {
  /** The user's id: an agent is a user with agent fields. */
  id: string
  organization_id: string
  /** The activity key: a built-in one (`offline`, `available`, `busy`, `break`, `wrap_up`) or a custom one. */
  status: string
  /** The activity's immutable `available` flag, copied (0/1 on SQLite: read with Boolean()). */
  available: boolean | number
  /** Why the agent is in its status: `login`, `set`, `capacity`, `logout`, `idle`, `supervisor`; null before the first login. */
  status_reason: string | null
  /** While `busy` by capacity: the activity it returns to when its load drops. */
  resume_status: string | null
  status_changed_at: number
  /** The open agent session (logged in), or null (offline). */
  session_id: string | null
  /** Capacity; null: no limit. */
  max_concurrent: number | null
  /** Open tickets assigned to the agent, its active calls and its active or wrap-up engagement sessions. */
  current_load: number
  auto_offline: boolean | number
  /** JSON arrays of strings; agent_labels indexes them. */
  skills: string
  teams: string
  /** The agent's last request seen (login, its own status changes, and the auth module's last-used times). */
  last_seen_at: number | null
  created_at: number
  updated_at: number
}

export interface AgentLabelsTable {
  agent_id: string
  organization_id: string
  kind: 'skill' | 'team'
  value: string
}

/** A custom activity of an organization; the built-in ones are constants (activities.ts). */
export interface AgentActivitiesTable {
  organization_id: string
  activity_key: string
  name: string
  available: boolean | number
  created_at: number
}

/** One login to logout of an agent. */
export interface AgentSessionsTable {
  /** `ags_…` */
  id: string
  organization_id: string
  agent_id: string
  login_at: number
  logout_at: number | null
  /** `logout` (the agent), `idle` (the cron loop), `supervisor` (someone else set it offline). */
  logout_reason: string | null
  ip: string | null
  user_agent: string | null
}

declare module '../../db/database.ts' {
  interface Tables {
    agents: AgentsTable
    agent_labels: AgentLabelsTable
    agent_activities: AgentActivitiesTable
    agent_sessions: AgentSessionsTable
  }
}
