// When a PostgreSQL write transaction is run again: concurrent transactions of several instances may
// deadlock (40P01), fail to serialize (40001), or insert the same unique key at once (23505, a check-
// then-insert that raced). Running the whole block again, with the other's commit now visible, gives
// the answer a serial order would have (the check finds the row). Bounded, with jitter; past the last
// attempt, or when a lock or statement timeout ends a statement, the client gets 503 with Retry-After.

/** SQLSTATEs after which the whole transaction is run again. */
const RETRIED = new Set(['40001', '40P01', '23505'])
/** SQLSTATEs of a statement ended by lock_timeout (55P03) or statement_timeout (57014). */
const TIMED_OUT = new Set(['55P03', '57014'])

/** Attempts in all, the first included. */
export const WRITE_ATTEMPTS = 6

function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { errno, code } = error as { errno?: unknown; code?: unknown }
  if (typeof errno === 'string') return errno
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
}

export function isRetriedConflict(error: unknown): boolean {
  const state = sqlState(error)
  return state !== undefined && RETRIED.has(state)
}

export function isTimedOut(error: unknown): boolean {
  const state = sqlState(error)
  return state !== undefined && TIMED_OUT.has(state)
}

/** Whether an error is a unique violation (the same key written twice). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505' || (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/** A write that could not complete for contention: 503, try again shortly. */
export class DatabaseBusy extends Error {
  override name = 'DatabaseBusy'
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message)
  }
}

/** Milliseconds to wait before attempt `attempt` (2, 3, …): exponential from 2 ms, full jitter. */
export function retryDelayMs(attempt: number): number {
  return Math.random() * Math.min(200, 2 ** attempt)
}
