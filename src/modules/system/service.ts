// System verbs: the liveness report with the cron loop's state (error messages for operators only),
// and the readiness probe (at most one database write a second, however often it is asked).
import type { AppContext, UserActor } from '../../context.ts'
import type { Database } from '../../db/database.ts'
import type { TaskStatus } from '../../jobs/scheduler.ts'
import { writeReadyProbe } from './store.ts'

/** What an unauthenticated caller of /health sees instead of a failed task's error message. */
export const HIDDEN_ERROR = 'hidden: shown to Super Admins only (send their access token or personal access token)'

/**
 * An operator, for /health: a Super Admin signed in fully, by access token or personal access token.
 * Cron errors are the installation's, not an organization's, and can name files, hosts or SQL.
 */
export function isOperator(actor: UserActor | undefined): boolean {
  if (actor?.role !== 'super_admin') return false
  // A token issued to an OAuth client is the client's, not the operator's.
  if (actor.credential.type === 'api_key') return true
  return actor.credential.type === 'session' && !actor.credential.mfaEnrollmentOnly
}

/**
 * The liveness report; `showErrors` for an operator (see isOperator). Asked by anyone, so it takes no
 * Ctx. On an instance that does not lead the cron loop, the cluster's tasks are shown as the leader
 * shared them (who ran them, when); its own tasks as it ran them.
 */
export async function getHealth(
  app: Pick<AppContext, 'version' | 'startedAt' | 'scheduler' | 'cluster'>,
  input: { now: number; showErrors: boolean },
) {
  const local = app.scheduler.status()
  const leader = app.scheduler.isLeader
  const shared = leader ? undefined : await app.cluster.sharedCronStatus()
  const cron = Object.fromEntries(
    Object.entries(local).map(([name, task]) => [name, task.scope === 'cluster' && shared?.[name] ? shared[name] : task]),
  )
  const failing = Object.values(cron).some((task) => task.last_error !== null)
  const redis = app.cluster.redisState()
  return {
    status: failing || redis === 'unreachable' ? ('degraded' as const) : ('ok' as const),
    version: app.version,
    uptime_s: Math.max(0, Math.floor((input.now - app.startedAt) / 1000)),
    instance: app.cluster.instanceId,
    cron_leader: leader,
    ...(redis === 'none' ? {} : { redis }),
    cron: input.showErrors ? cron : withoutErrorText(cron),
  }
}

/** That a task failed, and when, stays visible; what it said does not. */
function withoutErrorText(cron: Record<string, TaskStatus>): Record<string, TaskStatus> {
  return Object.fromEntries(
    Object.entries(cron).map(([name, task]) => [name, task.last_error === null ? task : { ...task, last_error: HIDDEN_ERROR }]),
  )
}

/** A write at most this often: a flood of /ready calls costs the writer lock once a second, not once a call. */
export const READY_WRITE_INTERVAL_MS = 1000

export type ReadyResult = { ok: true } | { ok: false; reason: string }

/**
 * Ready means the database takes a write. A write that succeeded less than READY_WRITE_INTERVAL_MS
 * ago answers for the calls that follow it, and calls that arrive while a write is under way share
 * it; a failure is never remembered (the next call tries again).
 */
export function readinessProbe(db: Database): (now: number) => Promise<ReadyResult> {
  let lastWriteAt: number | undefined
  let inFlight: Promise<ReadyResult> | undefined
  return async (now) => {
    if (lastWriteAt !== undefined && now >= lastWriteAt && now - lastWriteAt < READY_WRITE_INTERVAL_MS) return { ok: true }
    if (inFlight) return inFlight
    inFlight = probeDatabaseWrite(db, now)
    try {
      const result = await inFlight
      lastWriteAt = result.ok ? now : undefined
      return result
    } finally {
      inFlight = undefined
    }
  }
}

/** One single-row upsert in system_kv; returns the reason when the database refuses it. */
export async function probeDatabaseWrite(db: Database, now: number): Promise<ReadyResult> {
  try {
    await writeReadyProbe(db, now)
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
}
