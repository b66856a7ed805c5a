// Ticket metrics: created, solved, reopened, first response time (the first public comment by a person:
// not an automation, and never the requester, who writes no comments here) and resolution time.
import type { Fact } from '../facts.ts'
import type { FoldEvent, FoldState, MetricFamily } from '../metric.ts'
import { count, duration, ms, seconds } from './shared.ts'

const DIMENSIONS = ['priority', 'channel', 'assignee', 'tag'] as const

interface TicketState {
  status: string
  createdAt: number
  responded: boolean
}

// biome-ignore lint/suspicious/noExplicitAny: a Ticket of the event catalog.
function dimsOf(ticket: any) {
  return { priority: ticket.priority, channel: ticket.channel, assignee: ticket.assignee_id ?? null, tag: ticket.tags ?? [] }
}

function fact(
  event: FoldEvent,
  stream: string,
  // biome-ignore lint/suspicious/noExplicitAny: a Ticket of the event catalog.
  ticket: any,
  at: number,
  value: number | null = null,
  startedAt: number | null = null,
): Fact {
  return { stream, at, recordType: 'ticket', recordId: ticket.id, seq: event.seq, value, startedAt, dims: dimsOf(ticket) }
}

async function stateOf(state: FoldState, event: FoldEvent): Promise<TicketState> {
  const ticket = event.data.ticket
  return (await state.get<TicketState>(`t:${ticket.id}`)) ?? { status: ticket.status, createdAt: ms(ticket.created_at)!, responded: false }
}

export const TICKETS: MetricFamily = {
  metrics: [
    {
      id: 'tickets.created',
      family: 'tickets',
      name: 'Tickets created',
      unit: 'count',
      definition:
        'Tickets created in the window, by their creation time (a ticket deleted since is no longer counted, as the tickets list no longer has it).',
      records: 'tickets',
      dimensions: DIMENSIONS,
      version: 1,
      streams: ['ticket.created'],
      value: count('ticket.created'),
    },
    {
      id: 'tickets.solved',
      family: 'tickets',
      name: 'Tickets solved',
      unit: 'count',
      definition: 'Moves of tickets into `solved` in the window (a ticket solved, reopened and solved again counts twice).',
      records: 'tickets',
      dimensions: DIMENSIONS,
      version: 1,
      streams: ['ticket.solved'],
      value: count('ticket.solved'),
    },
    {
      id: 'tickets.reopened',
      family: 'tickets',
      name: 'Tickets reopened',
      unit: 'count',
      definition: 'Moves of tickets from `solved` back to `open` in the window.',
      records: 'tickets',
      dimensions: DIMENSIONS,
      version: 1,
      streams: ['ticket.reopened'],
      value: count('ticket.reopened'),
    },
    {
      id: 'tickets.first_response_time',
      family: 'tickets',
      name: 'First response time',
      unit: 'seconds',
      definition:
        "From a ticket's creation to its first public comment by a person (signed in, or through an OAuth application on their behalf; comments made with a personal access token, an OAuth client's own token or by the system are automations and do not count), counted when that comment is made.",
      records: 'tickets',
      dimensions: DIMENSIONS,
      version: 1,
      streams: ['ticket.first_response'],
      duration: true,
      value: duration('ticket.first_response'),
    },
    {
      id: 'tickets.resolution_time',
      family: 'tickets',
      name: 'Resolution time',
      unit: 'seconds',
      definition: "From a ticket's creation to each move into `solved`, counted at that move.",
      records: 'tickets',
      dimensions: DIMENSIONS,
      version: 1,
      streams: ['ticket.solved'],
      duration: true,
      value: duration('ticket.solved'),
    },
  ],
  folders: {
    'ticket.created': (event, state) => {
      const ticket = event.data.ticket
      const createdAt = ms(ticket.created_at)!
      // What a later event assumes of a ticket it finds no state for (stateOf) is this state, but for a
      // ticket created solved (reopening it counts): only that one is written, so most creations write none.
      if (ticket.status === 'solved')
        state.set(`t:${ticket.id}`, { status: ticket.status, createdAt, responded: false } satisfies TicketState)
      return [fact(event, 'ticket.created', ticket, createdAt)]
    },
    'ticket.updated': async (event, state) => {
      if (!(event.data.changed as string[]).includes('status')) return []
      const ticket = event.data.ticket
      const known = await stateOf(state, event)
      state.set(`t:${ticket.id}`, { ...known, status: ticket.status })
      return known.status === 'solved' && ticket.status === 'open' ? [fact(event, 'ticket.reopened', ticket, event.createdAt)] : []
    },
    'ticket.resolved': async (event, state) => {
      const ticket = event.data.ticket
      const known = await stateOf(state, event)
      state.set(`t:${ticket.id}`, { ...known, status: 'solved' })
      return [fact(event, 'ticket.solved', ticket, event.createdAt, seconds(known.createdAt, event.createdAt), known.createdAt)]
    },
    'ticket.comment.added': async (event, state) => {
      const { ticket, comment } = event.data
      // An event older than the actor's kind (null) is taken for a person's: comments are users'.
      if (!comment.public || event.actorKind === 'automation') return []
      const known = await stateOf(state, event)
      if (known.responded) return []
      state.set(`t:${ticket.id}`, { ...known, responded: true })
      const at = ms(comment.created_at)!
      return [fact(event, 'ticket.first_response', ticket, at, seconds(known.createdAt, at), known.createdAt)]
    },
  },
}
