// The recordings' SQL: one row by id, the keyset list of a call's recordings, insert, the guarded
// status changes (a change is made only from the status it was decided on, so the in-process reader,
// the cron loop and a DELETE never undo one another), and the cron loop's two queues.
import type { Queries, Tx } from '../../../db/database.ts'
import { findInOrg } from '../../../db/get-in-org.ts'
import { defineList } from '../../../db/list.ts'
import type { RecordingsTable } from '../table.ts'
import type { RecordingStatus } from './lifecycle.ts'

export type RecordingRow = RecordingsTable

// Sorted on the (organization_id, call_id, created_at, id) index with the call's condition.
export const RECORDING_LIST = defineList('recordings', { sorts: ['created_at'] })

export function findRecording(db: Queries, organizationId: string, id: string): Promise<RecordingRow | undefined> {
  return findInOrg(db, 'recordings', organizationId, id)
}

/** The recording, its row locked until the transaction ends (the retention's delete reads it so). */
export function lockRecording(tx: Tx, organizationId: string, id: string): Promise<RecordingRow | undefined> {
  return tx.raw.get<RecordingRow>(`SELECT * FROM recordings WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [id, organizationId])
}

export async function insertRecording(tx: Tx, row: RecordingRow): Promise<void> {
  await tx.kysely.insertInto('recordings').values(row).execute()
}

/** Saves `row` if the recording is still `from`; the number of rows changed (0: it moved meanwhile). */
export async function saveRecordingFrom(tx: Tx, from: RecordingStatus, row: RecordingRow): Promise<number> {
  const { id, organization_id, ...columns } = row
  const result = await tx.kysely
    .updateTable('recordings')
    .set(columns)
    .where('id', '=', id)
    .where('organization_id', '=', organization_id)
    .where('status', '=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Recordings still processing since before `before` (their reader died with its process): the cron loop's. */
export function staleProcessing(db: Queries, before: number, limit: number): Promise<RecordingRow[]> {
  return db.raw.all<RecordingRow>("SELECT * FROM recordings WHERE status = 'processing' AND updated_at < ? ORDER BY updated_at LIMIT ?", [
    before,
    limit,
  ])
}

/** Recordings past their retention that still have their audio. */
export function retentionDue(db: Queries, now: number, limit: number): Promise<RecordingRow[]> {
  return db.raw.all<RecordingRow>(
    'SELECT * FROM recordings WHERE deleted_at IS NULL AND retention_until <= ? ORDER BY retention_until LIMIT ?',
    [now, limit],
  )
}
