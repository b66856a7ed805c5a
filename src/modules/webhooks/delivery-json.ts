// The public JSON of a delivery record: the spec's fields (id, event_id, status, response_code,
// response_time_ms, delivered_at) plus what debugging needs.
import { isoTime } from '../../lib/clock.ts'
import type { DeliveryRow } from './store/deliveries.ts'

export type { DeliveryRow }

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

export function deliveryJson(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt: Number(row.attempt),
    trigger: row.trigger,
    response_code: row.response_code,
    response_time_ms: row.response_time_ms,
    delivered_at: time(row.delivered_at),
    next_attempt_at: time(row.next_attempt_at),
    error: row.error_class === null ? null : { class: row.error_class, message: row.error_message ?? '' },
    response_body: row.response_body,
    created_at: isoTime(Number(row.created_at)),
  }
}
