// The call lifecycle (research §2.2, after Twilio's call statuses and Chatwoot's `rejected`) as a table,
// and the check every verb applies: a call is queued, rings, is answered and ends in one of six
// terminal states, which nothing leaves.
import { AppError } from '../../../errors.ts'

export const CALL_STATUSES = [
  'queued',
  'ringing',
  'in_progress',
  'completed',
  'no_answer',
  'busy',
  'failed',
  'canceled',
  'rejected',
] as const
export type CallStatus = (typeof CALL_STATUSES)[number]

/** Counted in the agent's load, transferable, answerable or endable. */
export const ACTIVE_CALL_STATUSES = ['queued', 'ringing', 'in_progress'] as const satisfies readonly CallStatus[]
export const TERMINAL_CALL_STATUSES = [
  'completed',
  'no_answer',
  'busy',
  'failed',
  'canceled',
  'rejected',
] as const satisfies readonly CallStatus[]
export type TerminalCallStatus = (typeof TERMINAL_CALL_STATUSES)[number]

/** The operation that makes each move: `ring`, `answer`, `end` (POST /calls/{id}/<operation>). */
export type CallMove = 'ring' | 'answer' | 'end'

/**
 * Where each status may go. `queued -> in_progress` is an answer straight from the queue (an agent picks
 * the call up without a ringing phase; Twilio's callbacks may skip `ringing` too). A call in progress
 * only completes: whatever ends a connected call (either side hanging up, the line dropping) is a
 * completed call with its end_reason, as Twilio reports it.
 */
export const CALL_TRANSITIONS: Record<CallStatus, Partial<Record<CallStatus, CallMove>>> = {
  queued: { ringing: 'ring', in_progress: 'answer', failed: 'end', canceled: 'end' },
  ringing: { in_progress: 'answer', no_answer: 'end', busy: 'end', failed: 'end', canceled: 'end', rejected: 'end' },
  in_progress: { completed: 'end' },
  completed: {},
  no_answer: {},
  busy: {},
  failed: {},
  canceled: {},
  rejected: {},
}

export function isActive(status: CallStatus): boolean {
  return (ACTIVE_CALL_STATUSES as readonly CallStatus[]).includes(status)
}

export function isTerminal(status: CallStatus): status is TerminalCallStatus {
  return (TERMINAL_CALL_STATUSES as readonly CallStatus[]).includes(status)
}

/** 409 naming both states unless `from -> to` is in the table. */
export function assertCallTransition(from: CallStatus, to: CallStatus): void {
  if (CALL_TRANSITIONS[from][to] !== undefined) return
  const next = Object.keys(CALL_TRANSITIONS[from])
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    next.length === 0
      ? `A ${from} call has ended: it cannot become ${to}`
      : `A ${from} call cannot become ${to}; it can become ${next.join(', ')}`,
  )
}

/** 409 naming the state unless the call is still active (transfer). */
export function assertActive(status: CallStatus, what: string): void {
  if (!isActive(status)) throw new AppError('INVALID_STATE_TRANSITION', `A ${status} call has ended: it cannot be ${what}`)
}

/** Twilio and Chatwoot spell it `in-progress`; filters accept both. */
export function callStatusOf(text: string): CallStatus | undefined {
  const status = text === 'in-progress' ? 'in_progress' : text
  return (CALL_STATUSES as readonly string[]).includes(status) ? (status as CallStatus) : undefined
}

/**
 * The shortest way through the table from `from` to `to` (`to` last), or undefined when there is none:
 * a provider that reports only some statuses (Twilio sends `completed` alone by default) still moves a
 * call through every step, each with its times and event.
 */
export function callPath(from: CallStatus, to: CallStatus): CallStatus[] | undefined {
  const previous = new Map<CallStatus, CallStatus>()
  const queue: CallStatus[] = [from]
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    if (at === to) {
      const path: CallStatus[] = []
      for (let step: CallStatus | undefined = to; step !== from && step !== undefined; step = previous.get(step)) path.unshift(step)
      return path
    }
    for (const next of Object.keys(CALL_TRANSITIONS[at]) as CallStatus[])
      if (next !== from && !previous.has(next)) {
        previous.set(next, at)
        queue.push(next)
      }
  }
  return undefined
}
