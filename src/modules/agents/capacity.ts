// refreshAgentLoadInTx: the contract the tickets, calls and engagements modules call in their transactions
// whenever a ticket's, call's or session's assignee or status may have changed. It recounts each named
// user's load (open tickets, active calls, active or wrap-up sessions: the cross-module read, store.ts) and applies
// the capacity rule. Nulls, repeats and users without an agent profile are skipped.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { applyCapacity } from './move-status.ts'
import { countLoad, findAgent, saveAgent } from './store.ts'

export async function refreshAgentLoadInTx(
  tx: Tx,
  ctx: Ctx,
  input: { organizationId: string; userIds: ReadonlyArray<string | null>; now: number },
): Promise<void> {
  const userIds = new Set(input.userIds.filter((id): id is string => id !== null))
  for (const userId of userIds) {
    const agent = await findAgent(tx, input.organizationId, userId)
    if (!agent) continue
    const load = await countLoad(tx, input.organizationId, userId)
    if (load === Number(agent.current_load) && agent.session_id === null) continue
    // The load is no change of the profile: updated_at stays.
    const counted = { ...agent, current_load: load }
    if (load !== Number(agent.current_load)) await saveAgent(tx, counted)
    await applyCapacity(tx, ctx, counted, input.now)
  }
}
