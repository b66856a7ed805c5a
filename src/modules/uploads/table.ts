// The uploads table as rows (Kysely); the columns are declared by 0016_uploads.sql.
import type { UPLOAD_PURPOSES, UPLOAD_STATUSES } from './lifecycle.ts'

/** A row of uploads. `receiving` rows (bytes still arriving) are internal: the API never shows them. */
export interface UploadsTable {
  id: string
  organization_id: string
  /** The sanitized filename shown to people and used in Content-Disposition; never part of the key. */
  filename: string
  /** Sniffed from the bytes; '' while receiving. */
  content_type: string
  size_bytes: number
  /** Hex SHA-256 of the bytes; '' while receiving. */
  sha256: string
  width: number | null
  height: number | null
  purpose: (typeof UPLOAD_PURPOSES)[number]
  status: (typeof UPLOAD_STATUSES)[number]
  /** Where the bytes are: random, unrelated to the id and the filename. */
  storage_key: string
  expires_at: number
  attached_type: string | null
  attached_id: string | null
  attached_at: number | null
  created_by: string | null
  created_at: number
  updated_at: number
  deleted_at: number | null
  deleted_by: string | null
  /** When the bytes were removed (expired, deleted): null while they are still stored. */
  purged_at: number | null
}

declare module '../../db/database.ts' {
  interface Tables {
    uploads: UploadsTable
  }
}
