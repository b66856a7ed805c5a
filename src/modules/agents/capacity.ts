// refreshAgentLoadInTx: the contract the tickets, calls and engagements modules call in their transactions
// whenever a ticket's, call's or session's assignee or status may have changed. It recounts each named
// user's load (open tickets, active calls, active or wrap-up sessions: the cross-module read, store.ts) and applies
// the capacity rule. Nulls, repeats and users without an agent profile are skipped. claimRoomInTx: the
// routing's check that an agent may take one more, on its locked row.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { applyCapacity } from './move-status.ts'
import { countLoad, lockAgent, lockAgentWithRoom, saveAgent } from './store.ts'

export async function refreshAgentLoadInTx(
  tx: Tx,
  ctx: Ctx,
  input: { organizationId: string; userIds: ReadonlyArray<string | null>; now: number },
): Promise<void> {
  // Sorted: two transactions refreshing the same agents lock their rows in one order.
  const userIds = [...new Set(input.userIds.filter((id): id is string => id !== null))].sort()
  for (const userId of userIds) {
    // The load counter stays the true count: the row is locked before counting, so the count (a later
    // statement) sees every load change committed by whoever held the row before.
    const agent = await lockAgent(tx, input.organizationId, userId)
    if (!agent) continue
    const load = await countLoad(tx, input.organizationId, userId)
    if (load === Number(agent.current_load) && agent.session_id === null) continue
    // The load is no change of the profile: updated_at stays.
    const counted = { ...agent, current_load: load }
    if (load !== Number(agent.current_load)) await saveAgent(tx, counted)
    await applyCapacity(tx, ctx, counted, input.now)
  }
}

/**
 * For a routing that gives the agent one more piece of work (the engagements' "auto"): true when the
 * agent is logged in, in an available activity and under capacity, checked on its row locked until the
 * caller's transaction ends, so two routings never both take an agent's last free place. The caller then
 * writes the work and refreshes the load (refreshAgentLoadInTx) before committing.
 */
export function claimRoomInTx(tx: Tx, input: { organizationId: string; userId: string }): Promise<boolean> {
  return lockAgentWithRoom(tx, input.organizationId, input.userId)
}
