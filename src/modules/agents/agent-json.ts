// An agent and an agent session as the API and the agent.* events show them.
import { isoTime } from '../../lib/clock.ts'
import type { AgentRow, AgentSessionRow, UserSummary } from './store.ts'

export function agentJson(row: AgentRow, user: UserSummary | undefined) {
  const lastSeen = row.last_seen_at === null ? null : Number(row.last_seen_at)
  return {
    id: row.id,
    // Never missing in practice (a profile's user is never deleted); a placeholder keeps the shape.
    user: { id: row.id, name: user?.name ?? '', email: user?.email ?? '', role: user?.role ?? '' },
    status: row.status,
    available: Boolean(row.available),
    status_reason: row.status_reason,
    status_changed_at: isoTime(Number(row.status_changed_at)),
    session_id: row.session_id,
    max_concurrent: row.max_concurrent === null ? null : Number(row.max_concurrent),
    current_load: Number(row.current_load),
    auto_offline: Boolean(row.auto_offline),
    skills: JSON.parse(row.skills) as string[],
    teams: JSON.parse(row.teams) as string[],
    last_seen_at: lastSeen === null ? null : isoTime(lastSeen),
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type AgentJson = ReturnType<typeof agentJson>

export function agentSessionJson(row: AgentSessionRow) {
  const loginAt = Number(row.login_at)
  const logoutAt = row.logout_at === null ? null : Number(row.logout_at)
  return {
    id: row.id,
    agent_id: row.agent_id,
    login_at: isoTime(loginAt),
    logout_at: logoutAt === null ? null : isoTime(logoutAt),
    duration_seconds: logoutAt === null ? null : Math.round((logoutAt - loginAt) / 1000),
    logout_reason: row.logout_reason,
    ip: row.ip,
    user_agent: row.user_agent,
  }
}

export type AgentSessionJson = ReturnType<typeof agentSessionJson>
