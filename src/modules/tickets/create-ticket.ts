// createTicket: a new ticket with the organization's next number; ticket.created (and ticket.assigned
// when it starts with an assignee) in the same transaction.
import { sql } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { priorityRank, type TicketPriority } from './lifecycle.ts'
import { assertAssignable, checkCustomFields, normalizeTags, recordTicketEvent, replaceTags } from './shared.ts'
import { ticketCounters, tickets } from './table.ts'
import type { TicketRow } from './ticket-json.ts'

export interface NewTicket {
  subject: string
  description?: string
  status?: 'new' | 'open' | 'pending' | 'on_hold'
  priority?: TicketPriority
  type?: TicketRow['type']
  channel?: TicketRow['channel']
  requester?: { name: string; email: string } | null
  assignee_id?: string | null
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
}

export function createTicket(db: AppDatabase, actor: UserActor, input: NewTicket, now: number): TicketRow {
  const customFields = checkCustomFields(input.custom_fields ?? {})
  const tags = normalizeTags(input.tags ?? [])
  return write(db, (tx) => {
    if (input.assignee_id) assertAssignable(tx, actor.organizationId, input.assignee_id)
    const { number } = tx
      .insert(ticketCounters)
      .values({ organization_id: actor.organizationId, last_number: 1 })
      .onConflictDoUpdate({ target: ticketCounters.organization_id, set: { last_number: sql`${ticketCounters.last_number} + 1` } })
      .returning({ number: ticketCounters.last_number })
      .get()!
    const row: TicketRow = {
      id: prefixedId('tkt'),
      organization_id: actor.organizationId,
      number,
      subject: input.subject.trim(),
      description: input.description ?? '',
      status: input.status ?? 'new',
      priority: priorityRank(input.priority ?? 'normal'),
      type: input.type ?? null,
      channel: input.channel ?? 'api',
      requester_name: input.requester?.name.trim() ?? null,
      requester_email: input.requester?.email.trim().toLowerCase() ?? null,
      assignee_id: input.assignee_id ?? null,
      tags: JSON.stringify(tags),
      custom_fields: customFields,
      created_at: now,
      updated_at: now,
      solved_at: null,
      closed_at: null,
    }
    tx.insert(tickets).values(row).run()
    replaceTags(tx, row, tags)
    recordTicketEvent(tx, actor, 'ticket.created', row, now)
    if (row.assignee_id) recordTicketEvent(tx, actor, 'ticket.assigned', row, now, { previous_assignee_id: null })
    return row
  })
}
