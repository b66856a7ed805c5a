// emit(tx, …): records an event in the caller's transaction, so it exists exactly when the change does.
// The envelope is serialized once here; deliveries send these bytes unchanged. The delivery rows of the
// webhooks that subscribe to it are written in the same transaction (the outbox).
import type { Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { EventType } from './catalog.ts'
import { fanOut } from '../webhooks/fan-out.ts'
import { events } from './table.ts'

/** Largest `data` an event may carry, serialized (the webhooks design's limit). */
export const MAX_EVENT_DATA_BYTES = 256 * 1024

export interface EmittedEvent {
  id: string
  type: EventType
  body: string
}

export interface NewEvent {
  organizationId: string
  type: EventType
  data: Record<string, unknown>
  now: number
}

/** Records an event and queues it for every webhook that subscribes to its type. */
export function emit(tx: Tx, event: NewEvent): EmittedEvent {
  const recorded = recordEvent(tx, event)
  fanOut(tx, { id: recorded.id, organizationId: event.organizationId, type: event.type, now: event.now })
  return recorded
}

/** Records an event without queueing it anywhere (a webhook's test event). */
export function recordEvent(tx: Tx, event: NewEvent): EmittedEvent {
  const id = prefixedId('evt')
  const data = JSON.stringify(event.data)
  // Refused with the change that caused it (the transaction rolls back): receivers and the outbox never see it.
  if (Buffer.byteLength(data) > MAX_EVENT_DATA_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `The ${event.type} event this change causes would carry more than ${MAX_EVENT_DATA_BYTES / 1024} KB of data`)
  // Written by hand so the key order of the envelope is fixed: id, type, created_at, organization_id, data.
  const body = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(isoTime(event.now))},"organization_id":${JSON.stringify(event.organizationId)},"data":${data}}`
  tx.insert(events).values({ id, organizationId: event.organizationId, type: event.type, body, createdAt: event.now }).run()
  return { id, type: event.type, body }
}
