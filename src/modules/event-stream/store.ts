// The event stream's only SQL: the organization's event log read in its stream order (stream_seq),
// a page at a time after the last event a stream has seen; and where the log ends now.
import type { Queries } from '../../db/database.ts'

export interface StreamEventRow {
  seq: number
  type: string
  body: string
}

const AFTER = 'SELECT stream_seq AS seq, type, body FROM events WHERE organization_id = ? AND stream_seq > ? ORDER BY stream_seq LIMIT ?'
const LATEST = 'SELECT coalesce(max(stream_seq), 0) AS seq FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL'

/** Up to `limit` events of the organization after `afterSeq`, in order (the unique index events_org_stream). */
export async function eventsAfter(db: Queries, organizationId: string, afterSeq: number, limit: number): Promise<StreamEventRow[]> {
  const rows = await db.raw.all<StreamEventRow>(AFTER, [organizationId, afterSeq, limit])
  // PostgreSQL hands a bigint back as a string.
  for (const row of rows) row.seq = Number(row.seq)
  return rows
}

/** The organization's last stream_seq (0 before its first event). */
export async function latestSeq(db: Queries, organizationId: string): Promise<number> {
  const row = await db.raw.get<{ seq: number | string }>(LATEST, [organizationId])
  return Number(row?.seq ?? 0)
}
