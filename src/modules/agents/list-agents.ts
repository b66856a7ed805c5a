// listAgents: supervisors and above see every agent of the organization, an agent only itself; filters
// status, available, team and skill before keyset pagination. Each page's user summaries come from one
// read of the users table.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../db/list.ts'
import { agentJson } from './agent-json.ts'
import { AGENT_ROLES, ensureProfiles, seesOnlyItself } from './profiles.ts'
import { AGENT_LIST, type AgentRow, agentRoleCondition, labelCondition, userSummaries } from './store.ts'

export interface AgentFilters {
  status?: string
  available?: boolean
  team?: string
  skill?: string
}

function agentConditions(actor: UserActor, filters: AgentFilters): Condition[] {
  // A profile stays when its user is disabled or leaves the agent roles (readable by id), but leaves the list.
  const where: Condition[] = [agentRoleCondition(AGENT_ROLES)]
  if (seesOnlyItself(actor)) where.push({ sql: 'agents.id = ?', params: [actor.userId] })
  if (filters.status !== undefined) where.push({ sql: 'agents.status = ?', params: [filters.status] })
  if (filters.available !== undefined) where.push({ sql: 'agents.available = ?', params: [filters.available] })
  if (filters.team !== undefined) where.push(labelCondition('team', filters.team.trim().toLowerCase()))
  if (filters.skill !== undefined) where.push(labelCondition('skill', filters.skill.trim().toLowerCase()))
  return where
}

/** Agents as JSON, with their users' summaries read at once. */
export async function agentsJson(ctx: Ctx<UserActor>, rows: readonly AgentRow[]) {
  const users = await userSummaries(
    ctx.db,
    ctx.actor.organizationId,
    rows.map((row) => row.id),
  )
  return rows.map((row) => agentJson(row, users.get(row.id)))
}

/** One agent as JSON, with its user's summary. */
export async function agentOut(ctx: Ctx<UserActor>, row: AgentRow) {
  return (await agentsJson(ctx, [row]))[0]!
}

export async function listAgents(ctx: Ctx<UserActor>, input: { filters: AgentFilters; request: ListRequest }) {
  await ensureProfiles(ctx)
  const page = await AGENT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: agentConditions(ctx.actor, input.filters),
  })
  const items = await agentsJson(ctx, page.rows)
  return listBody('agents', { ...page, rows: items }, (item) => item)
}
