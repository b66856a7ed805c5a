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

/** What a closed ticket is refused: another status (`{ to }`, a PATCH of it), or a change that keeps it closed. */
export type ClosedRefusal = { to: TicketStatus } | 'change' | 'be assigned' | 'take a comment'

/**
 * 409 naming both states when the ticket is closed: it becomes no other status (`to`), and while it
 * stays closed none of its fields changes, nobody is assigned and no comment is added.
 */
export function assertNotClosed(status: TicketStatus, refused: ClosedRefusal): void {
  if (status !== 'closed') return
  const asked = typeof refused === 'string' ? refused : refused.to === 'closed' ? 'change' : `become ${refused.to}`
  throw new AppError('INVALID_STATE_TRANSITION', `A closed ticket cannot ${asked}: it is final (it can still be read and deleted)`)
}

export function assertTransition(from: TicketStatus, to: TicketStatus): void {
  assertNotClosed(from, { to })
  if (!TRANSITIONS[from].includes(to)) {
    throw new AppError('INVALID_STATE_TRANSITION', `A ${from} ticket cannot become ${to}; it can become ${TRANSITIONS[from].join(', ')}`)
  }
}
