// transferCall: an active call handed to another agent or to a queue (call.transferred, with who had it
// and who has it now). Its status stays (a ringing call now rings at the new agent, a call in progress
// goes on, its talk time counting); a queue takes the call from its agent. An agent may hand its calls
// on to anyone: that is the point of a transfer (it then no longer sees the call).
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { type CallHandler, recordCallEvent, refreshAgentsOf } from './events.ts'
import { assertAgentUser, queueName } from './fields.ts'
import { assertActive } from './lifecycle.ts'
import { type CallRow, saveCall } from './store.ts'
import { lockVisibleCall } from './visibility.ts'

/** Exactly one of the two (400 naming `to` otherwise). */
export interface TransferTarget {
  agent_id?: string
  queue?: string
}

function handlerOf(target: TransferTarget): CallHandler {
  if ((target.agent_id === undefined) === (target.queue === undefined))
    throw validationError([{ field: 'to', message: 'must name exactly one of agent_id and queue' }])
  return target.agent_id !== undefined ? { agent_id: target.agent_id, queue: null } : { agent_id: null, queue: queueName(target.queue) }
}

export async function transferCall(ctx: Ctx<UserActor>, input: { id: string; to: TransferTarget }): Promise<CallRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const to = handlerOf(input.to)
  return ctx.db.write('call.transfer', async (tx) => {
    // Locked: one handler at a time; the transfer's from is who really had the call.
    const call = await lockVisibleCall(tx, actor, input.id)
    assertActive(call.status, 'transferred')
    const from: CallHandler = { agent_id: call.agent_id, queue: call.queue }
    // To an agent, the call keeps its queue (reports still count it there); to a queue, it leaves its agent.
    if (to.agent_id !== null) to.queue = call.queue
    if (to.agent_id === from.agent_id && to.queue === from.queue)
      throw new AppError('CONFLICT', to.agent_id !== null ? 'The call is already with this agent' : 'The call is already in this queue')
    if (to.agent_id !== null) await assertAgentUser(tx, actor.organizationId, to.agent_id, 'to.agent_id')
    const after: CallRow = { ...call, agent_id: to.agent_id, queue: to.queue, updated_at: now }
    await saveCall(tx, after)
    await refreshAgentsOf(tx, ctx, call, after, now)
    await recordCallEvent(tx, ctx, 'call.transferred', after, now, { from, to })
    return after
  })
}
