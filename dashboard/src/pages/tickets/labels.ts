// The words for a ticket's values (the API's enumerations), and the list's sorts, in the order a picker shows them.
import type { Schemas } from '../../../../clients/typescript/src/index.ts'

export type Ticket = Schemas['Ticket']
export type Comment = Schemas['Comment']

export const STATUS_LABELS: Record<Ticket['status'], string> = {
  new: 'New',
  open: 'Open',
  pending: 'Pending',
  on_hold: 'On hold',
  solved: 'Solved',
  closed: 'Closed',
}

export const PRIORITY_LABELS: Record<Ticket['priority'], string> = {
  urgent: 'Urgent',
  high: 'High',
  normal: 'Normal',
  low: 'Low',
}

export const TYPE_LABELS: Record<NonNullable<Ticket['type']>, string> = {
  question: 'Question',
  incident: 'Incident',
  problem: 'Problem',
  task: 'Task',
}

export const CHANNEL_LABELS: Record<Ticket['channel'], string> = {
  email: 'E-mail',
  web: 'Web',
  phone: 'Phone',
  chat: 'Chat',
  api: 'API',
}

/** The statuses a ticket may be created in (the API refuses the others). */
export const INITIAL_STATUSES = ['new', 'open', 'pending', 'on_hold'] as const

export const TICKET_SORTS = {
  'created_at:desc': 'Newest first',
  'created_at:asc': 'Oldest first',
  'updated_at:desc': 'Recently updated',
  'updated_at:asc': 'Least recently updated',
  'priority:desc': 'Most urgent first',
  'priority:asc': 'Least urgent first',
  'number:desc': 'Highest number first',
  'number:asc': 'Lowest number first',
} as const

export type TicketSort = keyof typeof TICKET_SORTS

/** Options of a <select> from a label map. */
export function options<K extends string>(labels: Record<K, string>): [K, string][] {
  return Object.entries(labels) as [K, string][]
}
