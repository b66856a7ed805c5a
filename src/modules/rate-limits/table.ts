// rate_limit_counters: the long (hourly and daily) rate-limit windows, saved periodically and at
// shutdown so that a restart does not hand out a fresh daily quota. Minute windows live in memory only.

/** A row of rate_limit_counters (Kysely). */
export interface RateLimitCountersTable {
  key: string
  window_ms: number
  window_start: number
  current: number
  previous: number
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    rate_limit_counters: RateLimitCountersTable
  }
}
