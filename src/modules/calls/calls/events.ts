// The call events (catalog group `call`), each recorded in the transaction of the change with the full
// call under data.call: call.started, call.answered, call.transferred (+ from, to), call.completed
// (every terminal state, + status and reason). Every change of a call's agent or status also has the
// agents module recompute the load of the agents concerned, in the same transaction.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { refreshAgentLoadInTx } from '../../agents/index.ts'
import { type EventType, recordChange } from '../../events/index.ts'
import { callJson } from './call-json.ts'
import type { CallRow } from './store.ts'

export type CallEventType = Extract<EventType, `call.${string}`>

/** Who handled a call before and after a transfer. */
export interface CallHandler {
  agent_id: string | null
  queue: string | null
}

export async function recordCallEvent(
  tx: Tx,
  ctx: Ctx,
  type: CallEventType,
  call: CallRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: call.organization_id,
    target: { type: 'call', id: call.id },
    data: { call: callJson(call), ...extra },
    now,
  })
}

/** call.completed's extras: the terminal status and why (end_reason). */
export function completedExtra(call: CallRow): Record<string, unknown> {
  return { status: call.status, reason: call.end_reason }
}

/** The agents' loads count their active calls: recomputed whenever a call's agent or status changes. */
export async function refreshAgentsOf(tx: Tx, ctx: Ctx, before: CallRow | undefined, after: CallRow, now: number): Promise<void> {
  if (before && before.agent_id === after.agent_id && before.status === after.status) return
  await refreshAgentLoadInTx(tx, ctx, { organizationId: after.organization_id, userIds: [before?.agent_id ?? null, after.agent_id], now })
}
