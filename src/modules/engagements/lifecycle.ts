// The session lifecycle (research §2.7, after Chatwoot's conversations and Twilio's tasks) as a table,
// and the check every verb applies: 409 INVALID_STATE_TRANSITION naming both states otherwise.
import { AppError } from '../../errors.ts'

export const ENGAGEMENT_STATUSES = ['queued', 'active', 'snoozed', 'wrap_up', 'closed'] as const
export type EngagementStatus = (typeof ENGAGEMENT_STATUSES)[number]

/** Statuses that count in the assignee's load (the agents module counts them: agents/store.ts). */
export const LOAD_STATUSES = ['active', 'wrap_up'] as const satisfies readonly EngagementStatus[]

/** The operation that makes each move (POST /engagements/{id}/<operation>, or a message, or the cron loop). */
export type EngagementMove = 'assign' | 'snooze' | 'unsnooze' | 'wrap_up' | 'close' | 'reopen'

/**
 * Where each status may go. queued -> active by an assignment; a queued session may be closed (the
 * customer left). wrap_up -> active and closed -> active|queued are reopenings (a closed session goes
 * back to its agent, or to the queue when it has none); an inbound message reopens and wakes too.
 */
export const ENGAGEMENT_TRANSITIONS: Record<EngagementStatus, Partial<Record<EngagementStatus, EngagementMove>>> = {
  queued: { active: 'assign', closed: 'close' },
  active: { snoozed: 'snooze', wrap_up: 'wrap_up', closed: 'close' },
  snoozed: { active: 'unsnooze', closed: 'close' },
  wrap_up: { active: 'reopen', closed: 'close' },
  closed: { active: 'reopen', queued: 'reopen' },
}

/** 409 naming both states unless `from -> to` is in the table (and, when given, made by `move`). */
export function assertEngagementTransition(from: EngagementStatus, to: EngagementStatus, move?: EngagementMove): void {
  const by = ENGAGEMENT_TRANSITIONS[from][to]
  if (by !== undefined && (move === undefined || by === move)) return
  if (by !== undefined) throw new AppError('INVALID_STATE_TRANSITION', `A ${from} session becomes ${to} by ${by}, not by ${move}`)
  const next = Object.keys(ENGAGEMENT_TRANSITIONS[from])
  throw new AppError('INVALID_STATE_TRANSITION', `A ${from} session cannot become ${to}; it can become ${next.join(', ')}`)
}

export function countsInLoad(status: EngagementStatus): boolean {
  return (LOAD_STATUSES as readonly EngagementStatus[]).includes(status)
}
