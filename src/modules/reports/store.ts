// The reports module's only SQL: the event log read in each organization's stream order, the facts, the
// 15-minute buckets, the fold's state and progress, the report settings, and the few streams read from
// their own tables (SOURCE_QUERIES: the records an offer or a lead creation leaves no event for).
import type { Queries, SqlValue, Tx } from '../../db/database.ts'
import type { ReportBucketsTable, ReportFactsTable, ReportProgressTable, ReportSettingsTable } from './table.ts'

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

/** A record deleted (in its deleting transaction): its facts leave the reports. Written once. */
export function insertDeletion(tx: Tx, organizationId: string, recordId: string, now: number): Promise<number> {
  return tx.raw.run(
    'INSERT INTO report_deletions (organization_id, record_id, deleted_at, folded) VALUES (?, ?, ?, false) ON CONFLICT DO NOTHING',
    [organizationId, recordId, now],
  )
}

/** The deleted records the fold has not taken out of the buckets yet. */
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

export async function foldedSeq(db: Queries, organizationId: string): Promise<number> {
  return (await progressOf(db, organizationId)).foldedSeq
}

export interface Progress {
  foldedSeq: number
  /** While a rebuild from a date reads the log again: the facts before this slot are kept, not made again. */
  keepBefore: number | null
  keepUntilSeq: number
}

export async function progressOf(db: Queries, organizationId: string): Promise<Progress> {
  const row = await db.raw.get<ReportProgressTable>('SELECT * FROM report_progress WHERE organization_id = ?', [organizationId])
  return {
    foldedSeq: Number(row?.folded_seq ?? 0),
    keepBefore: row?.keep_before === null || row?.keep_before === undefined ? null : Number(row.keep_before),
    keepUntilSeq: Number(row?.keep_until_seq ?? 0),
  }
}

export function saveProgress(tx: Tx, organizationId: string, seq: number, now: number): Promise<number> {
  return tx.raw.run(
    'INSERT INTO report_progress (organization_id, folded_seq, folded_at) VALUES (?, ?, ?) ' +
      'ON CONFLICT (organization_id) DO UPDATE SET folded_seq = excluded.folded_seq, folded_at = excluded.folded_at',
    [organizationId, seq, now],
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

const FACT_COLUMNS = 'organization_id, metric, at, record_type, record_id, seq, value, started_at, business_value, dims'
/** Rows per multi-row statement: far under both engines' parameter limits (SQLite 32,766; PostgreSQL 65,535). */
const ROWS_PER_STATEMENT = 200

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT))
  return out
}

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

/** The buckets of `streams` starting in [from, to], every dimension: what a batch of the fold adds to. */
export function bucketsAround(tx: Tx, organizationId: string, streams: readonly string[], from: number, to: number) {
  return tx.raw.all<ReportBucketsTable>(
    `SELECT * FROM report_buckets WHERE organization_id = ? AND metric IN (${placeholders(streams.length)}) AND bucket_start >= ? AND bucket_start <= ?`,
    [organizationId, ...streams, from, to],
  )
}

export async function saveBuckets(tx: Tx, rows: readonly ReportBucketsTable[]): Promise<void> {
  await Promise.all(
    chunks(rows).map((chunk) =>
      tx.raw.run(
        'INSERT INTO report_buckets (organization_id, metric, dim, dim_value, bucket_start, n, total, business_total, hist, business_hist) VALUES ' +
          chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ') +
          ' ON CONFLICT (organization_id, metric, dim, dim_value, bucket_start) DO UPDATE SET ' +
          'n = excluded.n, total = excluded.total, business_total = excluded.business_total, hist = excluded.hist, business_hist = excluded.business_hist',
        chunk.flatMap((row) => [
          row.organization_id,
          row.metric,
          row.dim,
          row.dim_value,
          row.bucket_start,
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

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/** The buckets of `streams` under dimension `dim` starting in [from, to). */
export function bucketsIn(db: Queries, organizationId: string, streams: readonly string[], dim: string, from: number, to: number) {
  return db.raw.all<ReportBucketsTable>(
    `SELECT * FROM report_buckets WHERE organization_id = ? AND metric IN (${placeholders(streams.length)}) AND dim = ? AND bucket_start >= ? AND bucket_start < ?`,
    [organizationId, ...streams, dim, from, to],
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

// Each source query takes (organization, from, to) and answers facts' columns; `d_` columns are dimensions.
const SURVEY_SCORE = (type: string) =>
  `SELECT id AS record_id, 'survey_response' AS record_type, responded_at AS at, score AS value, agent_id AS d_agent, channel AS d_channel FROM survey_responses WHERE organization_id = ? AND survey_type = '${type}' AND score IS NOT NULL AND responded_at >= ? AND responded_at < ?`
export const SOURCE_QUERIES: Readonly<Record<string, { sql: string; params: (org: string, from: number, to: number) => SqlValue[] }>> = {
  'survey.offered': {
    sql: "SELECT id AS record_id, 'survey_response' AS record_type, offered_at AS at, CASE WHEN responded_at IS NULL THEN 0 ELSE 1 END AS value, agent_id AS d_agent, channel AS d_channel FROM survey_responses WHERE organization_id = ? AND offered_at >= ? AND offered_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'survey.csat': { sql: SURVEY_SCORE('csat'), params: (org, from, to) => [org, from, to] },
  'survey.nps': { sql: SURVEY_SCORE('nps'), params: (org, from, to) => [org, from, to] },
  'survey.ces': { sql: SURVEY_SCORE('ces'), params: (org, from, to) => [org, from, to] },
  'contact.created': {
    sql: "SELECT id AS record_id, 'contact' AS record_type, created_at AS at, NULL AS value, owner_id AS d_owner, contact_type AS d_contact_type FROM contacts WHERE organization_id = ? AND merged_into_id IS NULL AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'lead.created': {
    sql: "SELECT id AS record_id, 'lead' AS record_type, created_at AS at, CASE WHEN converted_at IS NULL THEN 0 ELSE 1 END AS value, owner_id AS d_owner, source AS d_source FROM leads WHERE organization_id = ? AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'lead.converted': {
    sql: "SELECT id AS record_id, 'lead' AS record_type, converted_at AS at, NULL AS value, owner_id AS d_owner, source AS d_source FROM leads WHERE organization_id = ? AND converted_at >= ? AND converted_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'subscription.created': {
    sql: "SELECT id AS record_id, 'subscription' AS record_type, created_at AS at, NULL AS value, currency AS d_currency FROM subscriptions WHERE organization_id = ? AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'subscription.canceled': {
    sql: "SELECT id AS record_id, 'subscription' AS record_type, canceled_at AS at, NULL AS value, currency AS d_currency FROM subscriptions WHERE organization_id = ? AND canceled_at >= ? AND canceled_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'payment.succeeded': {
    sql: "SELECT id AS record_id, 'payment' AS record_type, succeeded_at AS at, amount AS value, currency AS d_currency FROM payments WHERE organization_id = ? AND succeeded_at >= ? AND succeeded_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'refund.created': {
    sql: "SELECT id AS record_id, 'refund' AS record_type, created_at AS at, amount AS value, currency AS d_currency FROM refunds WHERE organization_id = ? AND created_at >= ? AND created_at < ? AND status <> 'failed'",
    params: (org, from, to) => [org, from, to],
  },
}

/** The subscriptions' events up to `to`, in order: each carries the whole subscription as it then was. */
export function subscriptionEventsBefore(db: Queries, organizationId: string, to: number) {
  return db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE organization_id = ? AND type IN ('subscription.created', 'subscription.updated', 'subscription.canceled') AND created_at < ? AND stream_seq IS NOT NULL ORDER BY stream_seq",
    [organizationId, to],
  )
}

export function sourceRows(db: Queries, stream: string, organizationId: string, from: number, to: number) {
  const source = SOURCE_QUERIES[stream]!
  return db.raw.all<Record<string, SqlValue>>(source.sql, source.params(organizationId, from, to))
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
  for (const table of ['report_facts', 'report_buckets', 'report_state', 'report_progress'])
    await tx.raw.run(`DELETE FROM ${table} WHERE organization_id = ?`, [organizationId])
}

/**
 * Forgets the facts and buckets from the slot `keepBefore` on (an interval piece by its start) and the
 * state, and starts the log again from its first event, keeping what came before `keepBefore`.
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
  await tx.raw.run('DELETE FROM report_buckets WHERE organization_id = ? AND bucket_start >= ?', [organizationId, keepBefore])
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

/** Live: open tickets by status and priority, and how many have nobody assigned. */
export function openTickets(db: Queries, organizationId: string) {
  return db.raw.all<{ status: string; priority: number; unassigned: number; n: number }>(
    "SELECT status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END AS unassigned, count(*) AS n FROM tickets WHERE organization_id = ? AND status IN ('new', 'open', 'pending', 'on_hold') GROUP BY status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END",
    [organizationId],
  )
}

/** Live: calls not answered yet, and since when the oldest waits. */
export function waitingCalls(db: Queries, organizationId: string) {
  return db.raw.get<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(initialized_at) AS oldest FROM calls WHERE organization_id = ? AND status IN ('queued', 'ringing')",
    [organizationId],
  )
}

/** Live: sessions waiting for an agent, and since when the oldest waits. */
export function queuedSessions(db: Queries, organizationId: string) {
  return db.raw.get<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_at) AS oldest FROM engagements WHERE organization_id = ? AND status = 'queued'",
    [organizationId],
  )
}

/** Live: agents per status. */
export function agentsByStatus(db: Queries, organizationId: string) {
  return db.raw.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM agents WHERE organization_id = ? GROUP BY status', [
    organizationId,
  ])
}

export async function organizationIds(db: Queries): Promise<string[]> {
  return (await db.raw.all<{ id: string }>('SELECT id FROM organizations ORDER BY id')).map((row) => row.id)
}
