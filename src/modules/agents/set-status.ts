// setAgentStatus: PUT /agents/{id}/status. The agent sets its own, a supervisor (or above) anyone's,
// under the lifecycle table; `offline` is a logout (the session ends: agent.logged_out with reason
// `logout` for the agent itself, `supervisor` for someone else). Setting the status the agent has
// changes nothing. Entering an available activity at capacity makes the agent busy at once.
import type { Ctx, UserActor } from '../../context.ts'
import { validationError } from '../../errors.ts'
import { activityInTx } from './activities.ts'
import { endAgentSessionInTx } from './login.ts'
import { applyCapacity, moveStatus } from './move-status.ts'
import { agentIdOf, agentInTx, assertVisible } from './profiles.ts'
import type { AgentRow } from './store.ts'

export async function setAgentStatus(ctx: Ctx<UserActor>, input: { id: string; status: string }): Promise<AgentRow> {
  const { actor } = ctx
  const userId = agentIdOf(actor, input.id)
  assertVisible(actor, userId)
  const now = ctx.clock.now()
  const self = userId === actor.userId
  return ctx.db.write('agent.set_status', async (tx) => {
    const before = await agentInTx(tx, actor.organizationId, userId, now)
    // Locked: its deletion (which checks nobody is in it) waits for this move, or this finds it gone.
    const to = await activityInTx(tx, actor.organizationId, input.status)
    if (!to) throw validationError([{ field: 'status', message: 'is not an activity of this organization (GET /api/v1/agent-activities)' }])
    if (to.key === before.status) return before
    // The agent's own change is a sign of life for the idle logout (saved with the move).
    const agent = self ? { ...before, last_seen_at: now } : before
    if (to.key === 'offline') return (await endAgentSessionInTx(tx, ctx, agent, self ? 'logout' : 'supervisor', now)).agent
    const moved = await moveStatus(tx, ctx, agent, { to, way: 'set', reason: 'set' }, now)
    return applyCapacity(tx, ctx, moved, now)
  })
}
