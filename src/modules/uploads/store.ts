// The uploads module's only SQL: the row's life (receiving, pending, attached, expired, deleted), the
// keyset list, and the cron loop's batches. Reads for the API never see `receiving` rows.
import type { Queries, Tx } from '../../db/database.ts'
import { defineList } from '../../db/list.ts'
import type { UploadRow } from './upload-json.ts'

// Each sort has its index on (organization_id, column, id) in 0016_uploads.sql.
export const UPLOAD_LIST = defineList('uploads', { sorts: ['created_at', 'size_bytes'] })

/** The condition every API read of uploads carries: rows still receiving their bytes do not exist yet. */
export const VISIBLE = "uploads.status <> 'receiving'"

/** The upload, or undefined when it is missing, of another organization, or still receiving its bytes. */
export function findUpload(db: Queries, organizationId: string, id: string): Promise<UploadRow | undefined> {
  return db.raw.get<UploadRow>(`SELECT * FROM uploads WHERE id = ? AND organization_id = ? AND ${VISIBLE}`, [id, organizationId])
}

/**
 * The upload locked FOR UPDATE until the transaction ends. Invariant: a DELETE moves the upload from the
 * status it has now (an attach or expiry committed meanwhile is waited for and seen), never answers 409
 * where one after the other would not have, and is recorded once.
 */
export function lockUpload(tx: Tx, organizationId: string, id: string): Promise<UploadRow | undefined> {
  return tx.raw.get<UploadRow>(`SELECT * FROM uploads WHERE id = ? AND organization_id = ? AND ${VISIBLE}${tx.forUpdate}`, [
    id,
    organizationId,
  ])
}

/** By id alone (the signed download, whose signature names the id): visible rows only. */
export function findUploadById(db: Queries, id: string): Promise<UploadRow | undefined> {
  return db.raw.get<UploadRow>(`SELECT * FROM uploads WHERE id = ? AND ${VISIBLE}`, [id])
}

export async function insertUpload(tx: Tx, row: UploadRow): Promise<void> {
  await tx.kysely.insertInto('uploads').values(row).execute()
}

/** receiving -> pending with what was learnt from the bytes; 0 when the row is gone (swept as abandoned). */
export function markReceived(tx: Tx, row: UploadRow): Promise<number> {
  return tx.raw.run(
    "UPDATE uploads SET status = 'pending', content_type = ?, size_bytes = ?, sha256 = ?, width = ?, height = ?, updated_at = ? WHERE id = ? AND status = 'receiving'",
    [row.content_type, row.size_bytes, row.sha256, row.width, row.height, row.updated_at, row.id],
  )
}

/** A receiving row whose bytes never arrived (refused, failed, or abandoned). */
/** Whether the upload is still being received (not yet swept as abandoned). */
export async function isReceiving(db: Queries, id: string): Promise<boolean> {
  return (await db.raw.get('SELECT id FROM uploads WHERE id = ? AND status = ?', [id, 'receiving'])) !== undefined
}

export async function deleteReceivingRow(tx: Tx, id: string): Promise<void> {
  await tx.raw.run("DELETE FROM uploads WHERE id = ? AND status = 'receiving'", [id])
}

/** The named uploads of an organization, visible ones only. */
export function findUploadsInOrg(tx: Queries, organizationId: string, ids: readonly string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  const marks = ids.map(() => '?').join(', ')
  return tx.raw.all<UploadRow>(`SELECT * FROM uploads WHERE organization_id = ? AND id IN (${marks}) AND ${VISIBLE}`, [
    organizationId,
    ...ids,
  ])
}

/**
 * pending -> attached, guarded by the status in the statement itself. Invariant: an upload is attached at
 * most once, to one target: of attaches at once, one changes the row and the others change none (409).
 */
export async function markAttached(tx: Tx, ids: readonly string[], target: { type: string; id: string }, now: number): Promise<number> {
  const marks = ids.map(() => '?').join(', ')
  return tx.raw.run(
    `UPDATE uploads SET status = 'attached', attached_type = ?, attached_id = ?, attached_at = ?, updated_at = ? WHERE id IN (${marks}) AND status = 'pending'`,
    [target.type, target.id, now, now, ...ids],
  )
}

/** Marks an upload deleted (its bytes are removed after the commit, or by the cron loop). */
export function markDeleted(tx: Tx, row: UploadRow, deletedBy: string | null, now: number): Promise<number> {
  return tx.raw.run("UPDATE uploads SET status = 'deleted', deleted_at = ?, deleted_by = ?, updated_at = ? WHERE id = ? AND status = ?", [
    now,
    deletedBy,
    now,
    row.id,
    row.status,
  ])
}

/**
 * The uploads attached to any of these targets (a ticket and its comments), not yet deleted, locked FOR
 * UPDATE in id order: one deleted meanwhile by its own DELETE is waited for and then left out, not 409.
 */
export function uploadsAttachedTo(tx: Tx, organizationId: string, type: string, ids: readonly string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  const marks = ids.map(() => '?').join(', ')
  return tx.raw.all<UploadRow>(
    `SELECT * FROM uploads WHERE organization_id = ? AND attached_type = ? AND attached_id IN (${marks}) AND status = 'attached' ORDER BY id${tx.forUpdate}`,
    [organizationId, type, ...ids],
  )
}

/** Pending uploads past their expiry, oldest first (one batch of the cron loop). */
export function pendingDue(db: Queries, now: number, limit: number): Promise<UploadRow[]> {
  return db.raw.all<UploadRow>("SELECT * FROM uploads WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at LIMIT ?", [
    now,
    limit,
  ])
}

/** pending -> expired for those still pending (an attach that committed first wins). */
export function markExpired(tx: Tx, ids: readonly string[], now: number): Promise<number> {
  const marks = ids.map(() => '?').join(', ')
  return tx.raw.run(`UPDATE uploads SET status = 'expired', updated_at = ? WHERE id IN (${marks}) AND status = 'pending'`, [now, ...ids])
}

/** Expired and deleted uploads whose bytes are still stored. */
export function unpurged(db: Queries, limit: number): Promise<UploadRow[]> {
  return db.raw.all<UploadRow>(
    "SELECT * FROM uploads WHERE purged_at IS NULL AND status IN ('expired', 'deleted') ORDER BY updated_at LIMIT ?",
    [limit],
  )
}

export async function markPurged(tx: Tx, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return
  const marks = ids.map(() => '?').join(', ')
  await tx.raw.run(`UPDATE uploads SET purged_at = ? WHERE id IN (${marks}) AND purged_at IS NULL`, [now, ...ids])
}

/** Rows still receiving that began before `before`: their upload died with a process. */
export function abandonedReceiving(db: Queries, before: number, limit: number): Promise<UploadRow[]> {
  return db.raw.all<UploadRow>("SELECT * FROM uploads WHERE status = 'receiving' AND created_at < ? ORDER BY created_at LIMIT ?", [
    before,
    limit,
  ])
}

/** A pending upload no one has seen (its request failed after it was recorded): removed outright. */
export async function deletePendingRow(tx: Tx, id: string): Promise<void> {
  await tx.raw.run("DELETE FROM uploads WHERE id = ? AND status = 'pending'", [id])
}
