// AppDeps: everything a module needs, built once at boot (or per test) and passed in explicitly;
// Actor: who is making an authenticated request.
import type { Database } from 'bun:sqlite'
import type { Config } from './config.ts'
import type { AppDatabase } from './db/open.ts'
import type { Scheduler } from './jobs/scheduler.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import type { Grant, Role } from './modules/access/permissions.ts'
import type { PageTokens } from './db/page-tokens.ts'
import type { Revocations } from './modules/auth/revocations.ts'
import type { VerifiedTokens } from './modules/auth/verified-tokens.ts'
import type { Keyring } from './modules/keys/keyring.ts'

export interface AppDeps {
  readonly config: Config
  readonly sqlite: Database
  readonly db: AppDatabase
  readonly clock: Clock
  readonly log: Logger
  readonly scheduler: Scheduler
  readonly keyring: Keyring
  readonly revocations: Revocations
  readonly verifiedTokens: VerifiedTokens
  readonly pageTokens: PageTokens
  readonly version: string
  /** Clock time at which this process started. */
  readonly startedAt: number
}

/** A user authenticated by an access token; grants come from the user's current role, not the token. */
export interface UserActor {
  readonly kind: 'user'
  readonly userId: string
  readonly organizationId: string
  readonly role: Role
  readonly grants: readonly Grant[]
  readonly sessionId: string
  readonly tokenId: string
  /** Expiry of the presented token, in ms. */
  readonly tokenExpiresAt: number
}

export type Actor = UserActor
