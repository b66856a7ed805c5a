// The agent.* events (agent.status_changed, agent.logged_in, agent.logged_out), each through recordChange
// in the verb's transaction with the full agent under data.agent, plus what the type adds (from, to and
// reason of a status change; the agent session of a login or logout).
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { type EventType, recordChange } from '../events/index.ts'
import { agentJson, agentSessionJson } from './agent-json.ts'
import { type AgentRow, type AgentSessionRow, userSummaries } from './store.ts'

export type AgentEventType = Extract<EventType, `agent.${string}`>

export async function recordAgentEvent(
  tx: Tx,
  ctx: Ctx,
  type: AgentEventType,
  agent: AgentRow,
  now: number,
  extra: { from?: string; to?: string; reason?: string; session?: AgentSessionRow },
): Promise<void> {
  const user = (await userSummaries(tx, agent.organization_id, [agent.id])).get(agent.id)
  const { session, ...rest } = extra
  await recordChange(tx, ctx, {
    type,
    organizationId: agent.organization_id,
    target: { type: 'agent', id: agent.id },
    data: { agent: agentJson(agent, user), ...rest, ...(session && { session: agentSessionJson(session) }) },
    details: { ...rest, ...(session && { session_id: session.id }) },
    now,
  })
}
