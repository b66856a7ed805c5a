// System verbs: the liveness report with the cron loop's state, and the readiness probe.
import { sql } from 'drizzle-orm'
import type { AppDatabase } from '../../db/open.ts'
import { systemKv } from '../../db/kv.ts'
import type { Scheduler } from '../../jobs/scheduler.ts'

export function getHealth(deps: { version: string; startedAt: number; now: number; scheduler: Scheduler }) {
  const cron = deps.scheduler.status()
  const failing = Object.values(cron).some((task) => task.last_error !== null)
  return {
    status: failing ? ('degraded' as const) : ('ok' as const),
    version: deps.version,
    uptime_s: Math.max(0, Math.floor((deps.now - deps.startedAt) / 1000)),
    cron,
  }
}

/** Ready means the database takes a write; returns the reason when it does not. */
export function probeDatabaseWrite(db: AppDatabase, now: number): { ok: true } | { ok: false; reason: string } {
  try {
    db.insert(systemKv)
      .values({ key: 'ready_probe', value: String(now), updatedAt: now })
      .onConflictDoUpdate({ target: systemKv.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } })
      .run()
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
}
