// System verbs: the liveness report with the cron loop's state (error messages for operators only),
// and the readiness probe (at most one database write a second, however often it is asked).
import { sql } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { systemKv } from '../../db/kv.ts'
import type { Scheduler, TaskStatus } from '../../jobs/scheduler.ts'

/** What an unauthenticated caller of /health sees instead of a failed task's error message. */
export const HIDDEN_ERROR = 'hidden: shown to Super Admins only (send their access token or personal access token)'

/**
 * An operator, for /health: a Super Admin signed in fully, by access token or personal access token.
 * Cron errors are the installation's, not an organization's, and can name files, hosts or SQL.
 */
export function isOperator(actor: UserActor | undefined): boolean {
  if (!actor || actor.role !== 'super_admin') return false
  return actor.credential.type !== 'session' || !actor.credential.mfaEnrollmentOnly
}

export function getHealth(deps: { version: string; startedAt: number; now: number; scheduler: Scheduler; showErrors: boolean }) {
  const cron = deps.scheduler.status()
  const failing = Object.values(cron).some((task) => task.last_error !== null)
  return {
    status: failing ? ('degraded' as const) : ('ok' as const),
    version: deps.version,
    uptime_s: Math.max(0, Math.floor((deps.now - deps.startedAt) / 1000)),
    cron: deps.showErrors ? cron : withoutErrorText(cron),
  }
}

/** That a task failed, and when, stays visible; what it said does not. */
function withoutErrorText(cron: Record<string, TaskStatus>): Record<string, TaskStatus> {
  return Object.fromEntries(Object.entries(cron).map(([name, task]) => [name, task.last_error === null ? task : { ...task, last_error: HIDDEN_ERROR }]))
}

/** A write at most this often: a flood of /ready calls costs the writer lock once a second, not once a call. */
export const READY_WRITE_INTERVAL_MS = 1000

export type ReadyResult = { ok: true } | { ok: false; reason: string }

/**
 * Ready means the database takes a write. A write that succeeded less than READY_WRITE_INTERVAL_MS
 * ago answers for the calls that follow it; a failure is never remembered (the next call tries again).
 */
export function readinessProbe(db: AppDatabase): (now: number) => ReadyResult {
  let lastWriteAt: number | undefined
  return (now) => {
    if (lastWriteAt !== undefined && now >= lastWriteAt && now - lastWriteAt < READY_WRITE_INTERVAL_MS) return { ok: true }
    const result = probeDatabaseWrite(db, now)
    lastWriteAt = result.ok ? now : undefined
    return result
  }
}

/** One single-row upsert in system_kv; returns the reason when the database refuses it. */
export function probeDatabaseWrite(db: AppDatabase, now: number): ReadyResult {
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
