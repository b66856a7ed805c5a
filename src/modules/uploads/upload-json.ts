// An upload as the API, and the events of what it is attached to, show it.
import { isoTime } from '../../lib/clock.ts'
import type { UploadsTable } from './table.ts'

export type UploadRow = UploadsTable

export function uploadJson(row: UploadRow) {
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    purpose: row.purpose,
    // `receiving` never reaches a client: such rows are not found by the API's reads.
    status: row.status as Exclude<UploadRow['status'], 'receiving'>,
    expires_at: isoTime(Number(row.expires_at)),
    attached_to: row.attached_type === null || row.attached_id === null ? null : { type: row.attached_type, id: row.attached_id },
    created_by: row.created_by,
    created_at: isoTime(Number(row.created_at)),
  }
}

export type UploadJson = ReturnType<typeof uploadJson>
