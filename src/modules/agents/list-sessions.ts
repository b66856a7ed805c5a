// listAgentSessions: one agent's sessions (login to logout), newest first by default; an agent reads
// only its own. Filters: login_after / login_before (exclusive).
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../db/list.ts'
import { agentSessionJson } from './agent-json.ts'
import { getVisibleAgent } from './profiles.ts'
import { AGENT_SESSION_LIST } from './store.ts'

export interface SessionFilters {
  login_after?: string
  login_before?: string
}

export async function listAgentSessions(ctx: Ctx<UserActor>, input: { id: string; filters: SessionFilters; request: ListRequest }) {
  const agent = await getVisibleAgent(ctx, input.id)
  const where: Condition[] = [
    { sql: 'agent_sessions.agent_id = ?', params: [agent.id] },
    ...timeWindowConditions(input.filters, { login_after: 'agent_sessions.login_at > ?', login_before: 'agent_sessions.login_at < ?' }),
  ]
  const page = await AGENT_SESSION_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    // The agent is part of what a page token binds: a token of one agent's list is refused for another's.
    filters: { agent_id: agent.id, ...input.filters },
    where,
  })
  return listBody('sessions', page, agentSessionJson)
}
