// A recording as the API and its event (data.recording) show it.
import { isoTime } from '../../../lib/clock.ts'
import type { RecordingRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

export function recordingJson(row: RecordingRow) {
  return {
    id: row.id,
    call_id: row.call_id,
    upload_id: row.upload_id,
    status: row.status,
    duration_seconds: row.duration_ms === null ? null : Number(row.duration_ms) / 1000,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    failure_reason: row.failure_reason,
    retention_until: isoTime(Number(row.retention_until)),
    ready_at: time(row.ready_at),
    deleted_at: time(row.deleted_at),
    deleted_by: row.deleted_by,
    created_by: row.created_by,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type RecordingJson = ReturnType<typeof recordingJson>
