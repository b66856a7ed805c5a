// The reports' SQL about the event log and the fold: events in each organization's stream order, how far
// the fold got, its state, forgetting what it made (rebuild), and the report settings.
import type { Queries, Tx } from '../../../db/database.ts'
import type { ReportProgressTable, ReportSettingsTable } from '../table.ts'
import { chunks, placeholders } from './sql.ts'

export interface LogRow {
  seq: number
  type: string
  body: string
  created_at: number
  actor_kind: string | null
}

export function eventsAfter(db: Queries, organizationId: string, afterSeq: number, limit: number): Promise<LogRow[]> {
  return db.raw.all<LogRow>(
    'SELECT stream_seq AS seq, type, body, created_at, actor_kind FROM events WHERE organization_id = ? AND stream_seq > ? ORDER BY stream_seq LIMIT ?',
    [organizationId, afterSeq, limit],
  )
}

/** Organizations whose log has events the fold has not read yet, or deletions it has not applied. */
export function organizationsBehind(db: Queries): Promise<{ organization_id: string }[]> {
  return db.raw.all(
    'SELECT o.id AS organization_id FROM organizations o LEFT JOIN report_progress p ON p.organization_id = o.id ' +
      'WHERE EXISTS (SELECT 1 FROM events e WHERE e.organization_id = o.id AND e.stream_seq > coalesce(p.folded_seq, 0)) ' +
      'OR EXISTS (SELECT 1 FROM report_deletions d WHERE d.organization_id = o.id AND d.folded = false)',
  )
}

export async function foldedSeq(db: Queries, organizationId: string): Promise<number> {
  return (await progressOf(db, organizationId)).foldedSeq
}

export interface Progress {
  foldedSeq: number
  /** While a rebuild from a date reads the log again: the facts before this slot are kept, not made again. */
  keepBefore: number | null
  keepUntilSeq: number
  /** The zone of the day totals (set by the first fold from the organization's zone; kept until a whole rebuild). */
  dayZone: string | null
}

export async function progressOf(db: Queries, organizationId: string): Promise<Progress> {
  const row = await db.raw.get<ReportProgressTable>('SELECT * FROM report_progress WHERE organization_id = ?', [organizationId])
  return {
    foldedSeq: Number(row?.folded_seq ?? 0),
    keepBefore: row?.keep_before === null || row?.keep_before === undefined ? null : Number(row.keep_before),
    keepUntilSeq: Number(row?.keep_until_seq ?? 0),
    dayZone: row?.day_zone ?? null,
  }
}

export function saveProgress(tx: Tx, organizationId: string, seq: number, now: number, dayZone: string): Promise<number> {
  return tx.raw.run(
    'INSERT INTO report_progress (organization_id, folded_seq, folded_at, day_zone) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (organization_id) DO UPDATE SET folded_seq = excluded.folded_seq, folded_at = excluded.folded_at, day_zone = excluded.day_zone',
    [organizationId, seq, now, dayZone],
  )
}

export async function readState(db: Queries, organizationId: string, key: string): Promise<unknown> {
  const row = await db.raw.get<{ value: string }>('SELECT value FROM report_state WHERE organization_id = ? AND state_key = ?', [
    organizationId,
    key,
  ])
  return row === undefined ? undefined : JSON.parse(row.value)
}

/** Every state entry whose key starts with `prefix` (the agents' open intervals). */
export async function statesWithPrefix(db: Queries, organizationId: string, prefix: string): Promise<Map<string, unknown>> {
  const rows = await db.raw.all<{ state_key: string; value: string }>(
    'SELECT state_key, value FROM report_state WHERE organization_id = ? AND state_key >= ? AND state_key < ?',
    [organizationId, prefix, `${prefix}\uffff`],
  )
  return new Map(rows.map((row) => [row.state_key, JSON.parse(row.value)]))
}

/** The state of `keys` (in statements of a few hundred keys). */
export async function readStates(db: Queries, organizationId: string, keys: readonly string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>()
  for (const chunk of chunks(keys)) {
    const rows = await db.raw.all<{ state_key: string; value: string }>(
      `SELECT state_key, value FROM report_state WHERE organization_id = ? AND state_key IN (${placeholders(chunk.length)})`,
      [organizationId, ...chunk],
    )
    for (const row of rows) found.set(row.state_key, JSON.parse(row.value))
  }
  return found
}

export async function writeStates(tx: Tx, organizationId: string, entries: readonly [string, unknown][]): Promise<void> {
  await Promise.all(
    chunks(entries).map((chunk) =>
      tx.raw.run(
        `INSERT INTO report_state (organization_id, state_key, value) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ON CONFLICT (organization_id, state_key) DO UPDATE SET value = excluded.value`,
        chunk.flatMap(([key, value]) => [organizationId, key, JSON.stringify(value)]),
      ),
    ),
  )
}

export function findReportSettings(db: Queries, organizationId: string): Promise<ReportSettingsTable | undefined> {
  return db.raw.get<ReportSettingsTable>('SELECT * FROM report_settings WHERE organization_id = ?', [organizationId])
}

export function saveReportSettings(tx: Tx, row: ReportSettingsTable): Promise<number> {
  return tx.raw.run(
    'INSERT INTO report_settings (organization_id, time_zone, business_hours, updated_at) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (organization_id) DO UPDATE SET time_zone = excluded.time_zone, business_hours = excluded.business_hours, updated_at = excluded.updated_at',
    [row.organization_id, row.time_zone, row.business_hours, row.updated_at],
  )
}

/** Forgets what the fold made of an organization's log, so the next fold reads it again from the start. */
export async function forgetFolded(tx: Tx, organizationId: string): Promise<void> {
  // The deletions stay: a rebuild reads the log again, and must not count the deleted records again.
  await tx.raw.run('UPDATE report_deletions SET folded = true WHERE organization_id = ?', [organizationId])
  for (const table of ['report_facts', 'report_totals', 'report_state', 'report_progress'])
    await tx.raw.run(`DELETE FROM ${table} WHERE organization_id = ?`, [organizationId])
}

/**
 * Forgets the facts and totals from `keepBefore` on (an interval piece by its start; a total by its start)
 * and the state, and starts the log again from its first event, keeping what came before `keepBefore`.
 */
export async function forgetFoldedSince(
  tx: Tx,
  organizationId: string,
  keepBefore: number,
  spreadStreams: readonly string[],
): Promise<void> {
  await tx.raw.run(
    `DELETE FROM report_facts WHERE organization_id = ? AND (CASE WHEN metric IN (${placeholders(spreadStreams.length)}) THEN started_at ELSE at END) >= ?`,
    [organizationId, ...spreadStreams, keepBefore],
  )
  await tx.raw.run('DELETE FROM report_totals WHERE organization_id = ? AND bucket_start >= ?', [organizationId, keepBefore])
  await tx.raw.run('DELETE FROM report_state WHERE organization_id = ?', [organizationId])
  const last = await tx.raw.get<{ seq: number }>(
    'SELECT coalesce(max(stream_seq), 0) AS seq FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL',
    [organizationId],
  )
  await tx.raw.run(
    'INSERT INTO report_progress (organization_id, folded_seq, folded_at, keep_before, keep_until_seq) VALUES (?, 0, 0, ?, ?) ' +
      'ON CONFLICT (organization_id) DO UPDATE SET folded_seq = 0, keep_before = excluded.keep_before, keep_until_seq = excluded.keep_until_seq',
    [organizationId, keepBefore, Number(last?.seq ?? 0)],
  )
}

export async function organizationIds(db: Queries): Promise<string[]> {
  return (await db.raw.all<{ id: string }>('SELECT id FROM organizations ORDER BY id')).map((row) => row.id)
}
