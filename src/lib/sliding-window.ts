// Sliding-window rate counters held in memory (Cloudflare's approximation: the previous fixed window's
// count weighted by how much of it still overlaps the sliding window, plus the current count), with a
// bounded number of keys. Integer arithmetic in ms units, so the answer at a window edge is exact.

/** The state of one key: its fixed window (aligned to multiples of windowMs) and the one before. */
export interface WindowCount {
  readonly windowMs: number
  start: number
  current: number
  previous: number
  /** A long window counted since the last `takeDirty` (short windows are never saved, never marked). */
  dirty: boolean
}

export interface WindowCheck {
  readonly key: string
  readonly limit: number
  readonly windowMs: number
}

/** What one window says after a request: the X-RateLimit-* headers of that window. */
export interface WindowReport {
  readonly limit: number
  readonly remaining: number
  /** ms: when Remaining is 0, when a request is accepted again; otherwise when the window is empty again. */
  readonly resetAt: number
}

export type Verdict =
  | { readonly accepted: true; readonly report: WindowReport }
  | { readonly accepted: false; readonly report: WindowReport; readonly check: WindowCheck; readonly retryAfterMs: number }

export class SlidingWindows {
  private readonly entries = new Map<string, WindowCount>()

  /**
   * `maxKeys`: beyond it keys are dropped (they start again from zero: lenient, never wrong the other
   * way), short windows first. `savedFromMs`: windows at least this long are marked for `takeDirty`.
   */
  constructor(
    private readonly maxKeys: number,
    private readonly savedFromMs = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /**
   * Counts one request against every check, or against none: the first check already at its limit
   * refuses the request (refused requests are not counted). Accepted: the report of the most
   * constraining window (fewest remaining; on a tie, the later reset).
   */
  hit(checks: readonly WindowCheck[], now: number): Verdict {
    const counts: WindowCount[] = []
    for (const check of checks) {
      const count = this.rotated(check, now)
      if (weighted(count, now) >= check.limit * check.windowMs) {
        const acceptAt = nextAcceptance(count, check.limit, now)
        return { accepted: false, check, retryAfterMs: acceptAt - now, report: { limit: check.limit, remaining: 0, resetAt: acceptAt } }
      }
      counts.push(count)
    }
    let report: WindowReport | undefined
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i]!
      const { limit, windowMs } = checks[i]!
      count.current++
      if (windowMs >= this.savedFromMs) count.dirty = true
      const left = limit * windowMs - weighted(count, now)
      const remaining = left > 0 ? Math.ceil(left / windowMs) : 0
      if (report && remaining > report.remaining) continue
      const resetAt = remaining === 0 ? nextAcceptance(count, limit, now) : count.start + 2 * windowMs
      if (!report || remaining < report.remaining || resetAt > report.resetAt) report = { limit, remaining, resetAt }
    }
    return { accepted: true, report: report ?? { limit: 0, remaining: 0, resetAt: now } }
  }

  /** Puts a saved state back (at boot). */
  restore(key: string, saved: Omit<WindowCount, 'dirty'>): void {
    this.entries.set(key, { ...saved, dirty: false })
  }

  /** The long windows counted since the last call, with their state; clears their mark. */
  takeDirty(): Array<[string, WindowCount]> {
    const out: Array<[string, WindowCount]> = []
    for (const [key, count] of this.entries) {
      if (!count.dirty) continue
      count.dirty = false
      out.push([key, count])
    }
    return out
  }

  /** Drops keys whose windows have forgotten every request; returns how many. */
  sweep(now: number): number {
    let dropped = 0
    for (const [key, count] of this.entries) {
      if (now >= count.start + 2 * count.windowMs && !count.dirty) {
        this.entries.delete(key)
        dropped++
      }
    }
    return dropped
  }

  private rotated(check: WindowCheck, now: number): WindowCount {
    const { key, windowMs } = check
    let count = this.entries.get(key)
    if (count === undefined || count.windowMs !== windowMs) {
      if (this.entries.size >= this.maxKeys) this.evict(now)
      count = { windowMs, start: now - (now % windowMs), current: 0, previous: 0, dirty: false }
      this.entries.set(key, count)
      return count
    }
    if (now >= count.start + windowMs) {
      count.previous = now >= count.start + 2 * windowMs ? 0 : count.current
      count.current = 0
      count.start = now - (now % windowMs)
    }
    return count
  }

  /**
   * At the cap: idle keys go first; then the oldest tenth (Map order is insertion order), short windows
   * before long ones, so a flood of new clients costs minute windows, not someone's spent daily quota.
   */
  private evict(now: number): void {
    if (this.sweep(now) > 0) return
    let toDrop = Math.max(1, Math.floor(this.maxKeys / 10))
    for (const [key, count] of this.entries) {
      if (toDrop === 0) return
      if (count.windowMs >= this.savedFromMs) continue
      this.entries.delete(key)
      toDrop--
    }
    for (const key of this.entries.keys()) {
      if (toDrop-- === 0) return
      this.entries.delete(key)
    }
  }
}

/**
 * The report of a request counted as the first of its window (nothing before it): what a fail-open
 * answer says when the counters cannot be reached.
 */
export function firstOfWindow(check: WindowCheck, now: number): WindowReport {
  const { limit, windowMs } = check
  const count: WindowCount = { windowMs, start: now - (now % windowMs), current: 1, previous: 0, dirty: false }
  const left = limit * windowMs - weighted(count, now)
  const remaining = left > 0 ? Math.ceil(left / windowMs) : 0
  return { limit, remaining, resetAt: remaining === 0 ? nextAcceptance(count, limit, now) : count.start + 2 * windowMs }
}

/** The sliding count times windowMs (an integer while counts and times are). */
function weighted(count: WindowCount, now: number): number {
  return count.previous * (count.start + count.windowMs - now) + count.current * count.windowMs
}

/** The first ms at which one more request fits (strictly under the limit); `now` if one fits already. */
function nextAcceptance(count: WindowCount, limit: number, now: number): number {
  const { start, windowMs, current, previous } = count
  if (weighted(count, now) < limit * windowMs) return now
  // This window alone is full: wait until, in the next one, its count has slid out far enough.
  if (current >= limit) return Math.floor(start + 2 * windowMs - (limit * windowMs) / current) + 1
  return Math.floor(start + windowMs - ((limit - current) * windowMs) / previous) + 1
}
