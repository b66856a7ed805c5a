// The one writer's lock: first come, first served. A write transaction holds it from BEGIN to COMMIT;
// holding it long stalls every other write, so a hold past `slowMs` is reported with its name.

/**
 * Names a write transaction that is long by design and bounded by its own limit (an import of up to
 * IMPORT_MAX_ROWS rows): writes waiting behind it wait it out instead of failing after waitTimeoutMs,
 * and its hold is not reported as slow.
 */
export const BULK_PREFIX = 'bulk:'

export interface WriterLockOptions {
  /** A hold longer than this is reported (default 50 ms). */
  slowMs?: number
  /** A waiter gives up after this long (default 5 s, as SQLite's busy_timeout). */
  waitTimeoutMs?: number
  onSlow?(name: string, heldMs: number): void
}

/** Waited too long for the writer: most likely a write outside the transaction that holds it. */
export class WriterLockTimeout extends Error {
  override name = 'WriterLockTimeout'
}

interface Waiter {
  name: string
  grant(): void
  timer?: ReturnType<typeof setTimeout>
}

export class WriterLock {
  private holder: string | undefined
  private since = 0
  private readonly queue: Waiter[] = []
  private readonly slowMs: number
  private readonly waitTimeoutMs: number

  constructor(private readonly options: WriterLockOptions = {}) {
    this.slowMs = options.slowMs ?? 50
    this.waitTimeoutMs = options.waitTimeoutMs ?? 5_000
  }

  /** Who holds it now (a transaction's name), if anyone. */
  get heldBy(): string | undefined {
    return this.holder
  }

  /** Resolves once the caller holds the lock; call `release` exactly once afterwards. */
  acquire(name: string): Promise<void> | undefined {
    if (this.holder === undefined) {
      this.take(name)
      return undefined
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { name, grant: resolve }
      const expire = () => {
        // A bulk write (BULK_PREFIX) holds the writer for seconds by design, and finishes: wait it out.
        if (this.holder?.startsWith(BULK_PREFIX)) {
          waiter.timer = setTimeout(expire, this.waitTimeoutMs)
          return
        }
        const at = this.queue.indexOf(waiter)
        if (at >= 0) this.queue.splice(at, 1)
        reject(new WriterLockTimeout(`"${name}" waited ${this.waitTimeoutMs} ms for the database writer, held by "${this.holder}"`))
      }
      waiter.timer = setTimeout(expire, this.waitTimeoutMs)
      this.queue.push(waiter)
    })
  }

  /** `quiet`: maintenance (a checkpoint at close, ANALYZE) is expected to take long and is not reported. */
  release(quiet = false): void {
    const heldMs = performance.now() - this.since
    if (!quiet && heldMs > this.slowMs && this.holder !== undefined && !this.holder.startsWith(BULK_PREFIX))
      this.options.onSlow?.(this.holder, Math.round(heldMs))
    this.holder = undefined
    const next = this.queue.shift()
    if (!next) return
    clearTimeout(next.timer)
    this.take(next.name)
    next.grant()
  }

  private take(name: string): void {
    this.holder = name
    this.since = performance.now()
  }
}
