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

const INSERT_EVENT = 'INSERT INTO events (id, organization_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)'

/** Writes the event row only (no audit, no subscribers): a webhook's test event. */
export async function recordEvent(
  tx: Tx,
  event: { organizationId: string; type: EventType; data: Record<string, unknown>; now: number },
): Promise<RecordedEvent> {
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
  await tx.raw.run(INSERT_EVENT, [id, event.organizationId, event.type, body, event.now])
  return { id, organizationId: event.organizationId, type: event.type, body, createdAt: event.now }
}

export async function recordChange(tx: Tx, ctx: Ctx, change: Change): Promise<RecordedEvent> {
  const now = change.now ?? ctx.clock.now()
  const event = await recordEvent(tx, { organizationId: change.organizationId, type: change.type, data: change.data, now })
  await appendAudit(tx, {
    organizationId: change.organizationId,
    actor: auditActorOf(ctx.actor),
    event: change.type,
    target: change.target,
    details: change.details ?? {},
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
  for (const subscriber of ctx.eventSubscribers) await subscriber(tx, event)
  return event
}
