// AppDeps: everything a module needs, built once at boot (or per test) and passed in explicitly.
import type { Database } from 'bun:sqlite'
import type { Config } from './config.ts'
import type { AppDatabase } from './db/open.ts'
import type { Scheduler } from './jobs/scheduler.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'

export interface AppDeps {
  readonly config: Config
  readonly sqlite: Database
  readonly db: AppDatabase
  readonly clock: Clock
  readonly log: Logger
  readonly scheduler: Scheduler
  readonly version: string
  /** Clock time at which this process started. */
  readonly startedAt: number
}
