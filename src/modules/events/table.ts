// events: what happened in an organization, written in the same transaction as the change.

/** A row of events (Kysely). */
export interface EventsTable {
  id: string
  organization_id: string
  type: string
  body: string
  created_at: number
  /** The organization's stream order (1, 2, …); null for events written before it existed. */
  stream_seq: number | null
  /** `person` or `automation` (record-change.ts: actorKindOf); null for events written before it existed, and test events. */
  actor_kind: string | null
}

declare module '../../db/database.ts' {
  interface Tables {
    events: EventsTable
  }
}
