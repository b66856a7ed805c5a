// recordChange(tx, ctx, change): a change the spec names as an event, recorded in the caller's
// transaction: the event row (its envelope serialized once), the audit record, and whatever the
// subscribers write (webhook deliveries) commit together with the change or not at all.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { RecordedEvent } from '../../ports.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import type { EventType } from './catalog.ts'

/** Largest `data` an event may carry, serialized (the webhooks design's limit). */
export const MAX_EVENT_DATA_BYTES = 256 * 1024

export interface Change {
  type: EventType
  organizationId: string
  /** What changed, for the audit record. */
  target: { type: string; id: string }
  /** The event's data: the full object under its resource name (`{ ticket: … }`), plus extras. */
  data: Record<string, unknown>
  /** What the audit record adds (never a secret); default none. */
  details?: Record<string, unknown>
  /** When it happened: the verb's one reading of the clock (default: now). */
  now?: number
}

// stream_seq: the organization's next, in the writing transaction (writes are serialized, on PostgreSQL
// across instances): the live stream (GET /api/v1/events/stream) resumes after a Last-Event-ID by it.
const INSERT_EVENT =
  'INSERT INTO events (id, organization_id, type, body, created_at, stream_seq) VALUES (?, ?, ?, ?, ?, ' +
  '(SELECT coalesce(max(stream_seq), 0) + 1 FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL))'

/** The event as it will be written: its id and envelope; refused here when its data is too large. */
function eventOf(event: { organizationId: string; type: EventType; data: Record<string, unknown>; now: number }): RecordedEvent {
  const id = prefixedId('evt')
  const data = JSON.stringify(event.data)
  // Refused with the change that caused it (the transaction rolls back): receivers and the outbox never see it.
  if (Buffer.byteLength(data) > MAX_EVENT_DATA_BYTES)
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The ${event.type} event this change causes would carry more than ${MAX_EVENT_DATA_BYTES / 1024} KB of data`,
    )
  // Written by hand so the key order of the envelope is fixed: id, type, created_at, organization_id, data.
  const body = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(isoTime(event.now))},"organization_id":${JSON.stringify(event.organizationId)},"data":${data}}`
  return { id, organizationId: event.organizationId, type: event.type, body, createdAt: event.now }
}

function insertEvent(tx: Tx, event: RecordedEvent): Promise<number> {
  return tx.raw.run(INSERT_EVENT, [event.id, event.organizationId, event.type, event.body, event.createdAt, event.organizationId])
}

/** Writes the event row only (no audit, no subscribers): a webhook's test event. */
export async function recordEvent(
  tx: Tx,
  event: { organizationId: string; type: EventType; data: Record<string, unknown>; now: number },
): Promise<RecordedEvent> {
  const recorded = eventOf(event)
  await insertEvent(tx, recorded)
  return recorded
}

export async function recordChange(tx: Tx, ctx: Ctx, change: Change): Promise<RecordedEvent> {
  const now = change.now ?? ctx.clock.now()
  const event = eventOf({ organizationId: change.organizationId, type: change.type, data: change.data, now })
  // Started together, not one after another: none needs another's result, so on PostgreSQL they go down
  // the transaction's connection as one pipeline (one round trip while the writer lock is held, not
  // three or more); statements run in the order they were started (the deliveries after their event).
  // On SQLite each runs at once as before.
  await Promise.all([
    insertEvent(tx, event),
    appendAudit(tx, {
      organizationId: change.organizationId,
      actor: auditActorOf(ctx.actor),
      event: change.type,
      target: change.target,
      details: change.details ?? {},
      request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
      now,
    }),
    ...ctx.eventSubscribers.map((subscriber) => subscriber(tx, event)),
  ])
  return event
}
