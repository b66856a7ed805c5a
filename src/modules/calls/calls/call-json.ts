// A call as the API and its events (data.call) show it.
import { isoTime } from '../../../lib/clock.ts'
import type { CallRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))
const count = (n: number | null) => (n === null ? null : Number(n))

export function callJson(row: CallRow) {
  return {
    id: row.id,
    direction: row.direction,
    from: row.from_number,
    to: row.to_number,
    contact_id: row.contact_id,
    agent_id: row.agent_id,
    queue: row.queue,
    status: row.status,
    provider: row.provider,
    provider_call_id: row.provider_call_id,
    initialized_at: isoTime(Number(row.initialized_at)),
    ringing_at: time(row.ringing_at),
    answered_at: time(row.answered_at),
    ended_at: time(row.ended_at),
    wait_seconds: count(row.wait_seconds),
    talk_seconds: count(row.talk_seconds),
    end_reason: row.end_reason,
    ticket_id: row.ticket_id,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type CallJson = ReturnType<typeof callJson>
