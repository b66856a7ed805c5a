// The rate-limits module's SQL. Saving and restoring the long windows of in-memory counters
// (SAVED_WINDOW_MS, an hour, or more: the daily quotas, the hourly upload limit), so a restart does not
// hand out a fresh daily quota (minute windows start afresh; Redis keeps its own); and an organization's
// plan and own rates (with its plan's, from the plans table).
import type { Database, Queries, Tx } from '../../db/database.ts'
import type { LocalRateCounters } from '../../ports.ts'

const UPSERT = `INSERT INTO rate_limit_counters (key, window_ms, window_start, current, previous, updated_at) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET window_ms = excluded.window_ms, window_start = excluded.window_start,
    current = excluded.current, previous = excluded.previous, updated_at = excluded.updated_at`

interface Row {
  key: string
  window_ms: number
  window_start: number
  current: number
  previous: number
}

/** Puts back every saved window that still counts (its requests have not all slid out). */
export async function restoreRateCounters(db: Queries, counters: LocalRateCounters, now: number): Promise<number> {
  const rows = await db.raw.all<Row>(
    'SELECT key, window_ms, window_start, current, previous FROM rate_limit_counters WHERE window_start + 2 * window_ms > ?',
    [now],
  )
  for (const row of rows) {
    counters.restore(row.key, {
      windowMs: Number(row.window_ms),
      start: Number(row.window_start),
      current: Number(row.current),
      previous: Number(row.previous),
    })
  }
  return rows.length
}

/** Writes the long windows counted since the last save, and deletes saved windows that no longer count. */
export async function saveRateCounters(
  db: Database,
  counters: LocalRateCounters,
  now: number,
): Promise<{ saved: number; deleted: number }> {
  const dirty = counters.takeDirty()
  try {
    const deleted = await db.write('rate_limit.save', async (tx) => {
      for (const [key, count] of dirty) await tx.raw.run(UPSERT, [key, count.windowMs, count.start, count.current, count.previous, now])
      return tx.raw.run('DELETE FROM rate_limit_counters WHERE window_start + 2 * window_ms <= ?', [now])
    })
    return { saved: dirty.length, deleted }
  } catch (error) {
    // Not saved: mark them again so the next save retries.
    for (const [, count] of dirty) count.dirty = true
    throw error
  }
}

/** An organization's plan, its own rates (null: the plan's) and its plan's rates (the plans table's, null without a row). */
export interface OrgRatesRow {
  id: string
  plan: string
  rate_limit_per_minute: number | null
  rate_limit_per_day: number | null
  plan_rate_limit_per_minute: number | null
  plan_rate_limit_per_day: number | null
}

const ORG_RATES = `SELECT id, plan, rate_limit_per_minute, rate_limit_per_day,
  (SELECT rate_limit_per_minute FROM plans WHERE plans.id = organizations.plan) AS plan_rate_limit_per_minute,
  (SELECT rate_limit_per_day FROM plans WHERE plans.id = organizations.plan) AS plan_rate_limit_per_day
  FROM organizations WHERE id = ?`

export async function findOrgRates(db: Queries, organizationId: string): Promise<OrgRatesRow | undefined> {
  return db.raw.get<OrgRatesRow>(ORG_RATES, [organizationId])
}

/**
 * As findOrgRates, the organization's row locked until commit (PostgreSQL; SQLite's one writer already
 * serializes): a change of plan or rates reads them, then writes and records before and after, and a
 * change at once on another instance waits for this one. NO KEY UPDATE, as the UPDATE that follows
 * takes anyway: the foreign key checks of rows naming the organization (KEY SHARE) never wait for it.
 */
export async function lockOrgRates(tx: Tx, organizationId: string): Promise<OrgRatesRow | undefined> {
  return tx.raw.get<OrgRatesRow>(tx.engine === 'postgres' ? `${ORG_RATES} FOR NO KEY UPDATE OF organizations` : ORG_RATES, [organizationId])
}

/** Sets the plan and, where given, the rates (a number, or null to clear); `undefined` keeps a rate. */
export async function updateOrgRates(
  tx: Tx,
  organizationId: string,
  change: { plan?: string; perMinute?: number | null; perDay?: number | null },
  now: number,
): Promise<OrgRatesRow | undefined> {
  const columns: [string, string | number | null][] = [['updated_at', now]]
  if (change.plan !== undefined) columns.push(['plan', change.plan])
  if (change.perMinute !== undefined) columns.push(['rate_limit_per_minute', change.perMinute])
  if (change.perDay !== undefined) columns.push(['rate_limit_per_day', change.perDay])
  const sets = columns.map(([column]) => `${column} = ?`).join(', ')
  await tx.raw.run(`UPDATE organizations SET ${sets} WHERE id = ?`, [...columns.map(([, value]) => value), organizationId])
  return findOrgRates(tx, organizationId)
}
