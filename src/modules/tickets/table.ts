// Tickets, their per-organization number counter, tag index and comments, as rows (Kysely); the
// columns are declared by the migrations in src/db/migrations.
import type { CHANNELS, STATUSES, TYPES } from './lifecycle.ts'

/** A row of tickets (Kysely). */
export interface TicketsTable {
  id: string
  organization_id: string
  number: number
  subject: string
  description: string
  status: (typeof STATUSES)[number]
  /** 0 low, 1 normal, 2 high, 3 urgent. */
  priority: number
  type: (typeof TYPES)[number] | null
  channel: (typeof CHANNELS)[number]
  requester_name: string | null
  requester_email: string | null
  /** The CRM contact the ticket is about (the CRM's migration added the column; it moves with a merge). */
  contact_id: string | null
  assignee_id: string | null
  /** JSON array of strings; ticket_tags indexes them for filtering. */
  tags: string
  /** JSON object of scalar values. */
  custom_fields: string
  /** JSON array of the ids of the uploads attached when it was created (uploads module), in the order given. */
  upload_ids: string
  created_at: number
  updated_at: number
  solved_at: number | null
  closed_at: number | null
}

export interface TicketCountersTable {
  organization_id: string
  last_number: number
}

export interface TicketTagsTable {
  ticket_id: string
  organization_id: string
  tag: string
}

export interface TicketCommentsTable {
  id: string
  organization_id: string
  ticket_id: string
  author_id: string
  body: string
  /** 0 or 1 on SQLite, a boolean on PostgreSQL: read with Boolean(). */
  public: number | boolean
  /** JSON array of the ids of the uploads attached to the comment, in the order given. */
  upload_ids: string
  created_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    tickets: TicketsTable
    ticket_counters: TicketCountersTable
    ticket_tags: TicketTagsTable
    ticket_comments: TicketCommentsTable
  }
}
