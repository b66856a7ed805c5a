// A ticket as the API and its events show it; one function, so responses, events and the benchmark's
// bare server serialize exactly the same thing.
import { isoTime } from '../../lib/clock.ts'
import { priorityName } from './lifecycle.ts'
import type { TicketsTable } from './table.ts'

export type TicketRow = TicketsTable

export function ticketJson(row: TicketRow) {
  return {
    id: row.id,
    number: Number(row.number),
    subject: row.subject,
    description: row.description,
    status: row.status,
    priority: priorityName(row.priority),
    type: row.type,
    channel: row.channel,
    requester: row.requester_email === null ? null : { name: row.requester_name ?? '', email: row.requester_email },
    contact_id: row.contact_id,
    assignee_id: row.assignee_id,
    tags: JSON.parse(row.tags) as string[],
    custom_fields: JSON.parse(row.custom_fields) as Record<string, string | number | boolean>,
    upload_ids: JSON.parse(row.upload_ids) as string[],
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    solved_at: row.solved_at === null ? null : isoTime(row.solved_at),
    closed_at: row.closed_at === null ? null : isoTime(row.closed_at),
  }
}

export type TicketJson = ReturnType<typeof ticketJson>
