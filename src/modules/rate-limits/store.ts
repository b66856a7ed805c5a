// Saving and restoring the long rate-limit windows (SAVED_WINDOW_MS, an hour, or more: the daily
// quotas, the hourly upload limit), so a restart does not hand out a fresh daily quota. Minute windows
// start afresh.
import type { Database } from 'bun:sqlite'
import type { RateLimiter } from './limiter.ts'

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
export function restoreRateCounters(sqlite: Database, limiter: RateLimiter, now: number): number {
  const rows = sqlite.query<Row, [number]>('SELECT key, window_ms, window_start, current, previous FROM rate_limit_counters WHERE window_start + 2 * window_ms > ?').all(now)
  for (const row of rows) limiter.windows.restore(row.key, { windowMs: row.window_ms, start: row.window_start, current: row.current, previous: row.previous })
  return rows.length
}

/** Writes the long windows counted since the last save, and deletes saved windows that no longer count. */
export function saveRateCounters(sqlite: Database, limiter: RateLimiter, now: number): { saved: number; deleted: number } {
  const dirty = limiter.windows.takeDirty()
  let deleted = 0
  try {
    const upsert = sqlite.query(UPSERT)
    sqlite.transaction(() => {
      for (const [key, count] of dirty) upsert.run(key, count.windowMs, count.start, count.current, count.previous, now)
      deleted = sqlite.run('DELETE FROM rate_limit_counters WHERE window_start + 2 * window_ms <= ?', [now]).changes
    }).immediate()
  } catch (error) {
    // Not saved: mark them again so the next save retries.
    for (const [, count] of dirty) count.dirty = true
    throw error
  }
  return { saved: dirty.length, deleted }
}
