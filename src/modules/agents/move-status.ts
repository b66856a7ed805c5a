// Moving an agent to another activity, the one way every verb does it: the lifecycle table's check,
// the row, and agent.status_changed (from, to, reason) in the caller's transaction. Also the capacity
// rule, applied whenever the load, the capacity or the status may have changed.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { type Activity, builtInActivity, findActivity } from './activities.ts'
import { recordAgentEvent } from './events.ts'
import { assertTransition, type Way } from './lifecycle.ts'
import { type AgentRow, saveAgent } from './store.ts'

/** Why a status changed, as events and the profile's `status_reason` say it. */
export type StatusReason = 'login' | 'set' | 'capacity' | 'logout' | 'idle' | 'supervisor'

export interface Move {
  to: Activity
  way: Way
  reason: StatusReason
  /** Columns that change with the status (the session on login and logout). */
  columns?: Partial<AgentRow>
}

/** The row after `move` (409 if the lifecycle table refuses it); nothing written yet. */
export function movedAgent(agent: AgentRow, move: Move, now: number): AgentRow {
  assertTransition(agent.status, move.to.key, move.way)
  return {
    ...agent,
    status: move.to.key,
    available: move.to.available,
    status_reason: move.reason,
    // Remembered only while busy by capacity: where the agent returns when its load drops.
    resume_status: move.reason === 'capacity' && move.to.key === 'busy' ? agent.status : null,
    status_changed_at: now,
    updated_at: now,
    ...move.columns,
  }
}

/** Saves `after` and records agent.status_changed from `before`. */
export async function commitMove(tx: Tx, ctx: Ctx, before: AgentRow, after: AgentRow, now: number): Promise<AgentRow> {
  await saveAgent(tx, after)
  await recordAgentEvent(tx, ctx, 'agent.status_changed', after, now, {
    from: before.status,
    to: after.status,
    reason: after.status_reason ?? 'set',
  })
  return after
}

/** Moves `agent` (as it is in the transaction) and records agent.status_changed; returns the row after. */
export function moveStatus(tx: Tx, ctx: Ctx, agent: AgentRow, move: Move, now: number): Promise<AgentRow> {
  return commitMove(tx, ctx, agent, movedAgent(agent, move, now), now)
}

export function atCapacity(agent: AgentRow): boolean {
  return agent.max_concurrent !== null && Number(agent.current_load) >= Number(agent.max_concurrent)
}

/**
 * The capacity rule: a logged-in agent in an available activity whose load reaches its capacity
 * becomes busy; one made busy by this rule goes back when its load drops below it. A busy the agent
 * chose itself stays.
 */
export async function applyCapacity(tx: Tx, ctx: Ctx, agent: AgentRow, now: number): Promise<AgentRow> {
  if (agent.session_id === null) return agent
  if (atCapacity(agent) && agent.available)
    return moveStatus(tx, ctx, agent, { to: builtInActivity('busy'), way: 'capacity', reason: 'capacity' }, now)
  if (!atCapacity(agent) && agent.status === 'busy' && agent.status_reason === 'capacity') {
    // A custom activity in use cannot be deleted, so the one to resume is there; available otherwise.
    const resume =
      (agent.resume_status && (await findActivity(tx, agent.organization_id, agent.resume_status))) || builtInActivity('available')
    return moveStatus(tx, ctx, agent, { to: resume, way: 'capacity', reason: 'capacity' }, now)
  }
  return agent
}
