// The idle logout: the cron loop logs out every logged-in agent with auto_offline on whose last request
// is older than AGENT_IDLE_TIMEOUT (agent.logged_out with reason idle, then agent.status_changed). The
// last request is the latest of the agent's login, its own status changes and what the auth module
// records of its credentials (sessions and personal access tokens: last_used_at, written at most once
// per lastSeenIntervalMs). Each run also brings every logged-in agent's last_seen_at up to date.
import type { Config } from '../../config.ts'
import type { Ctx } from '../../context.ts'
import { endAgentSessionInTx } from './login.ts'
import { type AgentRow, lastRequestTimes, lockAgent, loggedInAgents, touchAgent } from './store.ts'

const BATCH = 200

/**
 * How often a credential's last use should be written for the idle logout to see activity in time: a
 * quarter of the timeout, at most once a minute and at least a second apart.
 */
export function lastSeenIntervalMs(config: Pick<Config, 'agentIdleTimeoutMs'>): number {
  return Math.min(60_000, Math.max(1_000, Math.floor(config.agentIdleTimeoutMs / 4)))
}

/** How often the cron loop looks for idle agents: a quarter of the timeout, at most a minute, at least a tick. */
export function idleCheckIntervalMs(config: Pick<Config, 'agentIdleTimeoutMs' | 'cronTickMs'>): number {
  return Math.max(config.cronTickMs, Math.min(60_000, Math.floor(config.agentIdleTimeoutMs / 4)))
}

async function latestRequest(ctx: Ctx, agents: readonly AgentRow[]): Promise<Map<string, number>> {
  const seen = await lastRequestTimes(
    ctx.db,
    agents.map((agent) => agent.id),
  )
  return new Map(agents.map((agent) => [agent.id, Math.max(Number(agent.last_seen_at ?? 0), seen.get(agent.id) ?? 0)]))
}

/** One run: returns how many agents were logged out and how many last-seen times moved. */
export async function logOutIdleAgents(ctx: Ctx): Promise<{ loggedOut: number; seen: number }> {
  const now = ctx.clock.now()
  const timeout = ctx.config.agentIdleTimeoutMs
  let loggedOut = 0
  let seen = 0
  for (let after = '', more = true; more; ) {
    // Read outside the transaction; the writer is taken only for what changes.
    const agents = await loggedInAgents(ctx.db, after, BATCH)
    more = agents.length === BATCH
    after = agents.at(-1)?.id ?? after
    const latest = await latestRequest(ctx, agents)
    const moved = agents.filter((agent) => latest.get(agent.id)! > Number(agent.last_seen_at ?? 0))
    const idle = agents.filter((agent) => Boolean(agent.auto_offline) && now - latest.get(agent.id)! >= timeout)
    if (moved.length === 0 && idle.length === 0) continue
    loggedOut += await ctx.db.write('agent.idle_logout', async (tx) => {
      for (const agent of moved) await touchAgent(tx, agent, latest.get(agent.id)!)
      let ended = 0
      for (const candidate of idle) {
        // As it is now, locked (one logout per session): it may have logged out, or made a request, since the read.
        const agent = await lockAgent(tx, candidate.organization_id, candidate.id)
        if (!agent || agent.session_id !== candidate.session_id || !agent.auto_offline) continue
        const last = Math.max(Number(agent.last_seen_at ?? 0), (await lastRequestTimes(tx, [agent.id])).get(agent.id) ?? 0)
        if (now - last < timeout) continue
        await endAgentSessionInTx(tx, ctx, { ...agent, last_seen_at: last }, 'idle', now)
        ended++
      }
      return ended
    })
    seen += moved.length
  }
  return { loggedOut, seen }
}
