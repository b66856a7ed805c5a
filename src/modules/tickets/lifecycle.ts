// Ticket vocabularies and the status lifecycle (after Zendesk: new, open, pending, on_hold, solved, closed).
import { AppError } from '../../errors.ts'

export const STATUSES = ['new', 'open', 'pending', 'on_hold', 'solved', 'closed'] as const
export type TicketStatus = (typeof STATUSES)[number]
/** A ticket starts in one of these; solved and closed are reached by working it. */
export const INITIAL_STATUSES = ['new', 'open', 'pending', 'on_hold'] as const

/** Stored as its rank, so sorting by priority is sorting by urgency. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export type TicketPriority = (typeof PRIORITIES)[number]

export const TYPES = ['question', 'incident', 'problem', 'task'] as const
export const CHANNELS = ['email', 'web', 'phone', 'chat', 'api'] as const

/**
 * Where each status may go. `closed` is terminal: a closed ticket takes no change at all; `solved`
 * may reopen to `open`, and is closed by the cron loop after TICKET_AUTO_CLOSE_DAYS (or by hand).
 */
export const TRANSITIONS: Record<TicketStatus, readonly TicketStatus[]> = {
  new: ['open', 'pending', 'on_hold', 'solved'],
  open: ['pending', 'on_hold', 'solved'],
  pending: ['open', 'on_hold', 'solved'],
  on_hold: ['open', 'pending', 'solved'],
  solved: ['open', 'closed'],
  closed: [],
}

export function priorityRank(priority: TicketPriority): number {
  return PRIORITIES.indexOf(priority)
}

export function priorityName(rank: number): TicketPriority {
  return PRIORITIES[rank] ?? 'normal'
}

export function assertNotClosed(status: string): void {
  if (status === 'closed') throw new AppError('INVALID_STATE_TRANSITION', 'The ticket is closed: it can no longer change')
}

export function assertTransition(from: TicketStatus, to: TicketStatus): void {
  assertNotClosed(from)
  if (!TRANSITIONS[from].includes(to)) {
    throw new AppError('INVALID_STATE_TRANSITION', `A ${from} ticket cannot become ${to}; it can become ${TRANSITIONS[from].join(', ')}`)
  }
}
