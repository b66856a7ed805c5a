// events: what happened in an organization, written in the same transaction as the change.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { organizations } from '../organizations/table.ts'

export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type').notNull(),
    /** The envelope {id, type, created_at, organization_id, data}, serialized once and kept byte for byte. */
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('events_org_created').on(t.organizationId, t.createdAt, t.id)],
)

/** A row of events (Kysely). */
export interface EventsTable {
  id: string
  organization_id: string
  type: string
  body: string
  created_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    events: EventsTable
  }
}
