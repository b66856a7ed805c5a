// recordChange(tx, ctx, change): a change the spec names as an event, recorded in the caller's
// transaction: the event row (its envelope serialized once), the audit record, and whatever the
// subscribers write (webhook deliveries) commit together with the change or not at all.
import type { Actor, Ctx } from '../../context.ts'
import type { SqlValue, Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { RecordedEvent } from '../../ports.ts'
import { appendAudit, auditActorOf, orgLogKey } from '../audit/index.ts'
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
  /** A value of `data` known only at commit (a new ticket's number), spliced into the event's text there. */
  late?: LateValue
}

// stream_seq: the organization's next, computed in the commit pipeline under the organization's log
// lock (orgLogKey): the lock is held from this statement to COMMIT, so an event with a higher stream_seq
// always commits after every lower one, and the live stream (GET /api/v1/events/stream) resuming after a
// Last-Event-ID never skips one. The body is `replace(?, ?, ?)`: a value only the commit knows (a
// ticket's number) is spliced into the text there (Change.late); without one the replace finds nothing.
const INSERT_EVENT =
  'INSERT INTO events (id, organization_id, type, body, created_at, actor_kind, stream_seq) VALUES (?, ?, ?, ?, ?, ?, ' +
  '(SELECT coalesce(max(stream_seq), 0) + 1 FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL))'
const insertLate = (sql: string) =>
  'INSERT INTO events (id, organization_id, type, body, created_at, actor_kind, stream_seq) VALUES (?, ?, ?, ' +
  `replace(?, ?, ${sql}), ?, ?, ` +
  '(SELECT coalesce(max(stream_seq), 0) + 1 FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL))'

/** A value of the event's text known only at commit: `text` in the body becomes what `sql` (with `params`) yields. */
export interface LateValue {
  text: string
  sql: string
  params: SqlValue[]
}

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

/**
 * Who made a change, as reports tell people from automations: a person signed in (or acting through an
 * OAuth application on their behalf), or an automation (a personal access token, an OAuth client's own
 * token, the system itself: the cron loop, the CLI, a provider's callback).
 */
export type ActorKind = 'person' | 'automation'

export function actorKindOf(actor: Actor): ActorKind {
  if (actor.kind !== 'user') return 'automation'
  return actor.credential.type === 'session' || actor.credential.type === 'oauth' ? 'person' : 'automation'
}

function insertEvent(tx: Tx, event: RecordedEvent, late?: LateValue, actorKind: ActorKind | null = null): Promise<unknown> {
  if (!late)
    return tx.raw.run(INSERT_EVENT, [
      event.id,
      event.organizationId,
      event.type,
      event.body,
      event.createdAt,
      actorKind,
      event.organizationId,
    ])
  const params = [
    event.id,
    event.organizationId,
    event.type,
    event.body,
    late.text,
    ...late.params,
    event.createdAt,
    actorKind,
    event.organizationId,
  ]
  return tx.raw.get<{ body: string }>(`${insertLate(late.sql)} RETURNING body`, params).then((row) => {
    // The in-memory copy as committed.
    event.body = row!.body
  })
}

/**
 * Writes the event row only (no audit, no subscribers), at once: a webhook's test event, whose delivery
 * row names it in the same transaction. Holds the organization's log lock from here to COMMIT.
 */
export async function recordEvent(
  tx: Tx,
  event: { organizationId: string; type: EventType; data: Record<string, unknown>; now: number },
): Promise<RecordedEvent> {
  const recorded = eventOf(event)
  await tx.lock(orgLogKey(event.organizationId))
  await insertEvent(tx, recorded)
  return recorded
}

export async function recordChange(tx: Tx, ctx: Ctx, change: Change): Promise<RecordedEvent> {
  const now = change.now ?? ctx.clock.now()
  const event = eventOf({ organizationId: change.organizationId, type: change.type, data: change.data, now })
  // In the commit pipeline (Tx.atCommit), under the organization's log lock taken there: the event row,
  // then its audit record (audit/append.ts defers itself the same way), then what the subscribers defer
  // (the webhook deliveries, which name the event). The organization is serialized only for the
  // server's execution of these statements, never across a network round trip.
  tx.lockAtCommit(orgLogKey(change.organizationId))
  void tx.atCommit(() => insertEvent(tx, event, change.late, actorKindOf(ctx.actor)))
  appendAudit(tx, {
    organizationId: change.organizationId,
    actor: auditActorOf(ctx.actor),
    event: change.type,
    target: change.target,
    details: change.details ?? {},
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
  await Promise.all(ctx.eventSubscribers.map((subscriber) => subscriber(tx, event)))
  return event
}
