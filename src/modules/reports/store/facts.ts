// The reports' SQL about facts and totals: writing a batch's, reading a window's, and the deleted records.
import type { Queries, Tx } from '../../../db/database.ts'
import type { ReportFactsTable, ReportTotalsTable } from '../table.ts'
import { chunks, placeholders } from './sql.ts'

/** A record deleted (in its deleting transaction): its facts leave the reports. Written once. */
export function insertDeletion(tx: Tx, organizationId: string, recordId: string, now: number): Promise<number> {
  return tx.raw.run(
    'INSERT INTO report_deletions (organization_id, record_id, deleted_at, folded) VALUES (?, ?, ?, false) ON CONFLICT DO NOTHING',
    [organizationId, recordId, now],
  )
}

/** The deleted records the fold has not taken out of the totals yet. */
export async function pendingDeletions(db: Queries, organizationId: string): Promise<Set<string>> {
  const rows = await db.raw.all<{ record_id: string }>(
    'SELECT record_id FROM report_deletions WHERE organization_id = ? AND folded = false',
    [organizationId],
  )
  return new Set(rows.map((row) => row.record_id))
}

/** Which of `recordIds` were deleted (folded or not). */
export async function deletedAmong(db: Queries, organizationId: string, recordIds: readonly string[]): Promise<Set<string>> {
  if (recordIds.length === 0) return new Set()
  const rows = await db.raw.all<{ record_id: string }>(
    `SELECT record_id FROM report_deletions WHERE organization_id = ? AND record_id IN (${placeholders(recordIds.length)})`,
    [organizationId, ...recordIds],
  )
  return new Set(rows.map((row) => row.record_id))
}

export function factsOfRecord(db: Queries, organizationId: string, recordId: string) {
  return db.raw.all<ReportFactsTable>('SELECT * FROM report_facts WHERE organization_id = ? AND record_id = ?', [organizationId, recordId])
}

/** The record's facts are out of the buckets: they go, and the deletion is done. */
export async function finishDeletion(tx: Tx, organizationId: string, recordId: string): Promise<void> {
  await tx.raw.run('DELETE FROM report_facts WHERE organization_id = ? AND record_id = ?', [organizationId, recordId])
  await tx.raw.run('UPDATE report_deletions SET folded = true WHERE organization_id = ? AND record_id = ?', [organizationId, recordId])
}

const FACT_COLUMNS = 'organization_id, metric, at, record_type, record_id, seq, value, started_at, business_value, dims'

/** Many facts, written once each (folding an event again writes nothing more). */
export async function insertFacts(tx: Tx, rows: readonly ReportFactsTable[]): Promise<void> {
  await Promise.all(
    chunks(rows).map((chunk) =>
      tx.raw.run(
        `INSERT INTO report_facts (${FACT_COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
        chunk.flatMap((row) => [
          row.organization_id,
          row.metric,
          row.at,
          row.record_type,
          row.record_id,
          row.seq,
          row.value,
          row.started_at,
          row.business_value,
          row.dims,
        ]),
      ),
    ),
  )
}

/** The totals of `streams` over one span starting in [from, to], every dimension: what a batch of the fold adds to. */
export function totalsAround(
  tx: Tx,
  organizationId: string,
  span: string,
  streams: readonly string[],
  dims: readonly string[],
  from: number,
  to: number,
) {
  return tx.raw.all<ReportTotalsTable>(
    `SELECT * FROM report_totals WHERE organization_id = ? AND metric IN (${placeholders(streams.length)}) AND dim IN (${placeholders(dims.length)}) AND span = ? AND bucket_start >= ? AND bucket_start <= ?`,
    [organizationId, ...streams, ...dims, span, from, to],
  )
}

const TOTAL_COLUMNS = 'organization_id, metric, dim, span, bucket_start, dim_value, n, total, business_total, hist, business_hist'
const TOTAL_KEY = 'organization_id, metric, dim, span, bucket_start, dim_value'

/**
 * Writes totals: `add` adds the rows' counts and sums to what is stored (no histogram: nothing to read
 * first); otherwise the rows are the new totals, histograms included (read and merged by the caller).
 */
export async function saveTotals(tx: Tx, rows: readonly ReportTotalsTable[], add: boolean): Promise<void> {
  const update = add
    ? 'n = report_totals.n + excluded.n, total = report_totals.total + excluded.total, business_total = report_totals.business_total + excluded.business_total'
    : 'n = excluded.n, total = excluded.total, business_total = excluded.business_total, hist = excluded.hist, business_hist = excluded.business_hist'
  await Promise.all(
    chunks(rows).map((chunk) =>
      tx.raw.run(
        `INSERT INTO report_totals (${TOTAL_COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT (${TOTAL_KEY}) DO UPDATE SET ${update}`,
        chunk.flatMap((row) => [
          row.organization_id,
          row.metric,
          row.dim,
          row.span,
          row.bucket_start,
          row.dim_value,
          row.n,
          row.total,
          row.business_total,
          row.hist,
          row.business_hist,
        ]),
      ),
    ),
  )
}

/** The totals of `streams` under dimension `dim` over `span`, starting in [from, to). */
export function totalsIn(
  db: Queries,
  organizationId: string,
  streams: readonly string[],
  dim: string,
  span: string,
  from: number,
  to: number,
) {
  return db.raw.all<ReportTotalsTable>(
    `SELECT metric, dim_value, bucket_start, n, total, business_total, hist, business_hist FROM report_totals WHERE organization_id = ? AND metric IN (${placeholders(streams.length)}) AND dim = ? AND span = ? AND bucket_start >= ? AND bucket_start < ?`,
    [organizationId, ...streams, dim, span, from, to],
  )
}

/** Facts of `streams` at [from, to) (or, for interval pieces, starting in [from, to)). */
export function factsIn(db: Queries, organizationId: string, streams: readonly string[], from: number, to: number, byStart = false) {
  const column = byStart ? 'started_at' : 'at'
  return db.raw.all<ReportFactsTable>(
    `SELECT * FROM report_facts WHERE organization_id = ? AND metric IN (${placeholders(streams.length)}) AND ${column} >= ? AND ${column} < ?`,
    [organizationId, ...streams, from, to],
  )
}
