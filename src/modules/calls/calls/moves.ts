// A call moved to a new status, with the times each status stamps and the durations they define:
// ringing stamps ringing_at; in_progress answered_at and wait_seconds; a terminal state ended_at,
// talk_seconds (0 when never answered) and, for a call never answered, wait_seconds up to the end.
// Pure: the verbs check the lifecycle first and save the result.
import { isTerminal, type CallStatus } from './lifecycle.ts'
import type { CallRow } from './store.ts'

/** Whole seconds between two times (rounded; never negative, whatever a provider's clock says). */
export function secondsBetween(from: number, to: number): number {
  return Math.max(0, Math.round((to - from) / 1000))
}

export function withStatus(call: CallRow, to: CallStatus, at: number, endReason?: string | null): CallRow {
  const next: CallRow = { ...call, status: to, updated_at: Math.max(call.updated_at, at) }
  const initialized = Number(call.initialized_at)
  if (to === 'ringing') next.ringing_at = at
  if (to === 'in_progress') {
    next.answered_at = at
    next.wait_seconds = secondsBetween(initialized, at)
  }
  if (isTerminal(to)) {
    next.ended_at = at
    next.end_reason = endReason ?? to
    if (call.answered_at === null) {
      next.wait_seconds = secondsBetween(initialized, at)
      next.talk_seconds = 0
    } else next.talk_seconds = secondsBetween(Number(call.answered_at), at)
  }
  return next
}
