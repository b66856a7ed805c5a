// The API's lifecycle operations on one call, each one short transaction on a call the actor sees
// (404 otherwise): ring (queued -> ringing, optionally at an agent), answer (-> in_progress, by an
// agent), end (-> a terminal state, with a reason). An agent rings and answers calls only for itself.
import type { Ctx, UserActor } from '../../../context.ts'
import { assertAgentUser, assertMayTake } from './fields.ts'
import type { TerminalCallStatus } from './lifecycle.ts'
import { moveCallInTx } from './move-call.ts'
import type { CallRow } from './store.ts'
import { lockVisibleCall } from './visibility.ts'

/** queued -> ringing; `agent_id` (optional) is who it rings at. */
export async function ringCall(ctx: Ctx<UserActor>, input: { id: string; agent_id?: string | null }): Promise<CallRow> {
  const { actor } = ctx
  if (input.agent_id !== undefined) assertMayTake(actor, input.agent_id)
  const now = ctx.clock.now()
  return ctx.db.write('call.ring', async (tx) => {
    // Locked: one lifecycle step from the status read (a concurrent one waits, then meets the new status: 409).
    const call = await lockVisibleCall(tx, actor, input.id)
    if (input.agent_id && input.agent_id !== call.agent_id) await assertAgentUser(tx, actor.organizationId, input.agent_id)
    return moveCallInTx(tx, ctx, call, { to: 'ringing', at: now, now, agentId: input.agent_id })
  })
}

/**
 * queued or ringing -> in_progress (call.answered). The agent is the one given, else the one the call
 * rings at, else the caller; an agent answers only for itself.
 */
export async function answerCall(ctx: Ctx<UserActor>, input: { id: string; agent_id?: string }): Promise<CallRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  return ctx.db.write('call.answer', async (tx) => {
    // Locked: one lifecycle step from the status read (a concurrent one waits, then meets the new status: 409).
    const call = await lockVisibleCall(tx, actor, input.id)
    const agentId = input.agent_id ?? call.agent_id ?? actor.userId
    assertMayTake(actor, agentId)
    if (agentId !== call.agent_id) await assertAgentUser(tx, actor.organizationId, agentId)
    return moveCallInTx(tx, ctx, call, { to: 'in_progress', at: now, now, agentId })
  })
}

/** An active call -> a terminal state (call.completed, with the status and the reason: end_reason, else the status). */
export async function endCall(
  ctx: Ctx<UserActor>,
  input: { id: string; status?: TerminalCallStatus; end_reason?: string | null },
): Promise<CallRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const endReason = input.end_reason?.trim() || null
  return ctx.db.write('call.end', async (tx) => {
    // Locked: one lifecycle step from the status read (a concurrent one waits, then meets the new status: 409).
    const call = await lockVisibleCall(tx, actor, input.id)
    return moveCallInTx(tx, ctx, call, { to: input.status ?? 'completed', at: now, now, endReason })
  })
}
