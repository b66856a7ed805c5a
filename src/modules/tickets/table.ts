// Tickets, their per-organization number counter, tag index and comments. Property names are the
// column names, so rows from drizzle and from the raw list queries have one shape.
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core'
import { organizations } from '../organizations/table.ts'
import { users } from '../users/table.ts'
import { CHANNELS, STATUSES, TYPES } from './lifecycle.ts'

export const tickets = sqliteTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    organization_id: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    number: integer('number').notNull(),
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: STATUSES }).notNull(),
    /** 0 low, 1 normal, 2 high, 3 urgent. */
    priority: integer('priority').notNull(),
    type: text('type', { enum: TYPES }),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    requester_name: text('requester_name'),
    requester_email: text('requester_email'),
    assignee_id: text('assignee_id').references(() => users.id),
    /** JSON array of strings; ticket_tags indexes them for filtering. */
    tags: text('tags').notNull(),
    /** JSON object of scalar values. */
    custom_fields: text('custom_fields').notNull(),
    created_at: integer('created_at').notNull(),
    updated_at: integer('updated_at').notNull(),
    solved_at: integer('solved_at'),
    closed_at: integer('closed_at'),
  },
  (t) => [
    uniqueIndex('tickets_org_number').on(t.organization_id, t.number),
    index('tickets_org_created').on(t.organization_id, t.created_at, t.id),
    index('tickets_org_updated').on(t.organization_id, t.updated_at, t.id),
    index('tickets_org_priority').on(t.organization_id, t.priority, t.id),
    index('tickets_org_status_created').on(t.organization_id, t.status, t.created_at, t.id),
    index('tickets_org_assignee_created').on(t.organization_id, t.assignee_id, t.created_at, t.id),
    index('tickets_status_solved').on(t.status, t.solved_at),
  ],
)

/** The last ticket number given out per organization: numbers are never reused, even after a delete. */
export const ticketCounters = sqliteTable('ticket_counters', {
  organization_id: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  last_number: integer('last_number').notNull(),
})

export const ticketTags = sqliteTable(
  'ticket_tags',
  {
    ticket_id: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    organization_id: text('organization_id').notNull(),
    tag: text('tag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticket_id, t.tag] }), index('ticket_tags_org_tag').on(t.organization_id, t.tag, t.ticket_id)],
)

export const ticketComments = sqliteTable(
  'ticket_comments',
  {
    id: text('id').primaryKey(),
    organization_id: text('organization_id').notNull(),
    ticket_id: text('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    author_id: text('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    public: integer('public', { mode: 'boolean' }).notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('ticket_comments_ticket_created').on(t.ticket_id, t.created_at, t.id)],
)

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
  assignee_id: string | null
  /** JSON array of strings; ticket_tags indexes them for filtering. */
  tags: string
  /** JSON object of scalar values. */
  custom_fields: string
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
