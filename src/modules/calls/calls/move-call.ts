// moveCallInTx: one step of the lifecycle inside the caller's transaction — checked against the table,
// times stamped, saved, the agents' loads recomputed, and the step's event recorded (call.answered on
// reaching in_progress, call.completed on any terminal state; ringing has no event type). The API's
// verbs and the Twilio receiver both move calls through it.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { completedExtra, recordCallEvent, refreshAgentsOf } from './events.ts'
import { assertCallTransition, type CallStatus, isTerminal } from './lifecycle.ts'
import { withStatus } from './moves.ts'
import { type CallRow, saveCall } from './store.ts'

export interface CallStep {
  to: CallStatus
  /** When it happened (a provider may tell an earlier time than now). */
  at: number
  /** The verb's one reading of the clock: updated_at and the event's time. */
  now: number
  /** The agent who answers, or who the call rings at; undefined keeps the call's. */
  agentId?: string | null
  endReason?: string | null
}

export async function moveCallInTx(tx: Tx, ctx: Ctx, call: CallRow, step: CallStep): Promise<CallRow> {
  assertCallTransition(call.status, step.to)
  const after: CallRow = {
    ...withStatus(call, step.to, step.at, step.endReason),
    ...(step.agentId !== undefined && { agent_id: step.agentId }),
    updated_at: step.now,
  }
  await saveCall(tx, after)
  await refreshAgentsOf(tx, ctx, call, after, step.now)
  if (step.to === 'in_progress') await recordCallEvent(tx, ctx, 'call.answered', after, step.now)
  if (isTerminal(step.to)) await recordCallEvent(tx, ctx, 'call.completed', after, step.now, completedExtra(after))
  return after
}
