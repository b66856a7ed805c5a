// Agent login and logout: an agent session (login_at, logout_at, ip, user agent) from one to the other.
// Login makes an offline agent available (then the capacity rule may make it busy); logging in again
// while logged in changes nothing and answers the open session. Logout (by the agent, by a PUT of
// `offline`, or by the cron loop when idle) ends the session and makes the agent offline. Each writes
// agent.logged_in / agent.logged_out first, then agent.status_changed.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { builtInActivity } from './activities.ts'
import { recordAgentEvent } from './events.ts'
import { applyCapacity, commitMove, movedAgent } from './move-status.ts'
import { agentInTx } from './profiles.ts'
import { type AgentRow, type AgentSessionRow, endAgentSession, findAgentSession, insertAgentSession } from './store.ts'

export type LogoutReason = 'logout' | 'idle' | 'supervisor'

export interface AgentWithSession {
  agent: AgentRow
  /** The open session (login), the one just ended (logout), or null (logout while logged out). */
  session: AgentSessionRow | null
}

export async function loginAgent(ctx: Ctx<UserActor>): Promise<AgentWithSession> {
  const { actor } = ctx
  const now = ctx.clock.now()
  return ctx.db.write('agent.login', async (tx) => {
    const agent = await agentInTx(tx, actor.organizationId, actor.userId, now)
    if (agent.session_id !== null) return { agent, session: (await findAgentSession(tx, agent.organization_id, agent.session_id)) ?? null }
    const session: AgentSessionRow = {
      id: prefixedId('ags'),
      organization_id: agent.organization_id,
      agent_id: agent.id,
      login_at: now,
      logout_at: null,
      logout_reason: null,
      ip: actor.request.ip,
      user_agent: actor.request.userAgent,
    }
    await insertAgentSession(tx, session)
    // The session event first, with the agent as it is after the login; then its status change.
    const columns = { session_id: session.id, last_seen_at: now }
    const loggedIn = movedAgent(agent, { to: builtInActivity('available'), way: 'login', reason: 'login', columns }, now)
    await recordAgentEvent(tx, ctx, 'agent.logged_in', loggedIn, now, { session })
    return { agent: await applyCapacity(tx, ctx, await commitMove(tx, ctx, agent, loggedIn, now), now), session }
  })
}

export async function logoutAgent(ctx: Ctx<UserActor>): Promise<AgentWithSession> {
  const { actor } = ctx
  const now = ctx.clock.now()
  return ctx.db.write('agent.logout', async (tx) => {
    const agent = await agentInTx(tx, actor.organizationId, actor.userId, now)
    if (agent.session_id === null) return { agent, session: null }
    return endAgentSessionInTx(tx, ctx, agent, 'logout', now)
  })
}

/** Ends the agent's open session and makes it offline, with agent.logged_out then agent.status_changed. */
export async function endAgentSessionInTx(tx: Tx, ctx: Ctx, agent: AgentRow, reason: LogoutReason, now: number): Promise<AgentWithSession> {
  const open = agent.session_id === null ? undefined : await findAgentSession(tx, agent.organization_id, agent.session_id)
  const session = open ? { ...open, logout_at: now, logout_reason: reason } : null
  if (session) await endAgentSession(tx, session)
  const way = reason === 'idle' ? 'idle' : 'logout'
  const loggedOut = movedAgent(agent, { to: builtInActivity('offline'), way, reason, columns: { session_id: null } }, now)
  await recordAgentEvent(tx, ctx, 'agent.logged_out', loggedOut, now, { reason, ...(session && { session }) })
  return { agent: await commitMove(tx, ctx, agent, loggedOut, now), session }
}
