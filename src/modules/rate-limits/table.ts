// rate_limit_counters: the long (hourly and daily) rate-limit windows, saved periodically and at
// shutdown so that a restart does not hand out a fresh daily quota. Minute windows live in memory only.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const rateLimitCounters = sqliteTable('rate_limit_counters', {
  /** The counter's key, e.g. `user:<id>:86400000` (no secret: ids, addresses, hashed e-mails). */
  key: text('key').primaryKey(),
  windowMs: integer('window_ms').notNull(),
  /** Start of the current fixed window, ms since the epoch (a multiple of window_ms). */
  windowStart: integer('window_start').notNull(),
  current: integer('current').notNull(),
  previous: integer('previous').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

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
