// PostgreSQL session advisory locks held for as long as a process wants them, each on a connection of
// its own: the cron leadership of a cluster, and "one instance only" without Redis. PostgreSQL releases
// a lock the moment its connection ends, so a killed instance never leaves one behind.
import { SQL } from 'bun'

/** Lock keys: one number per purpose, the same in every instance. */
export const LOCKS = {
  /** Held by the instance that runs the cron tasks of the whole cluster. */
  cronLeader: 0x5377_0001,
  /** Exclusive for an instance without Redis (it must be alone); shared for instances with Redis. */
  instances: 0x5377_0002,
} as const

/** One advisory lock on a connection of its own, taken and confirmed on demand. */
export class AdvisoryLock {
  private readonly sql: SQL
  private held = false

  constructor(
    url: string,
    private readonly key: number,
    private readonly mode: 'exclusive' | 'shared' = 'exclusive',
  ) {
    this.sql = new SQL(url, { max: 1, idleTimeout: 0, connectionTimeout: 5 })
  }

  /** Whether this process held the lock at the last take(). */
  get isHeld(): boolean {
    return this.held
  }

  /**
   * True when the lock is ours now: confirmed if it was held, else taken if it is free. False when
   * another session holds it or PostgreSQL cannot be reached (a lost connection released it).
   */
  async take(): Promise<boolean> {
    try {
      if (this.held && (await this.confirm())) return true
      this.held = false
      const take = this.mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock'
      const [row] = (await this.sql.unsafe(`SELECT ${take}($1) AS taken`, [this.key])) as { taken: boolean }[]
      this.held = row?.taken === true
    } catch {
      this.held = false
    }
    return this.held
  }

  /** Unlocks before closing: the server ends a closed session a moment later, and a successor should not wait for that. */
  async release(): Promise<void> {
    if (this.held) await this.sql.unsafe('SELECT pg_advisory_unlock_all()').catch(() => undefined)
    this.held = false
    await this.sql.close().catch(() => undefined)
  }

  /**
   * Asked of the lock table, not just "is the connection up": the client reconnects by itself, and a
   * new connection does not hold what the lost one did.
   */
  private async confirm(): Promise<boolean> {
    const [row] = (await this.sql.unsafe(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND objsubid = 1 AND pid = pg_backend_pid() AND granted",
      [this.key],
    )) as { n: number }[]
    return row?.n === 1
  }
}
