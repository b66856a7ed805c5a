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
import type { Activity } from './modules/auth/activity.ts'
import type { SmsSender } from './modules/mfa/sms-sender.ts'
import type { Allowlists } from './modules/organizations/allowlist.ts'
import type { RateLimiter } from './modules/rate-limits/limiter.ts'
import type { Rates } from './modules/rate-limits/plans.ts'
import type { WebhookDispatcher } from './modules/webhooks/dispatcher.ts'

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
  /** Seals secrets at rest (TOTP secrets); the signing keys have their own copy in the keyring. */
  readonly masterKey: Uint8Array
  readonly sms: SmsSender
  /** Throttled last-seen writes of sessions and API keys. */
  readonly activity: Activity
  readonly allowlists: Allowlists
  readonly rateLimits: RateLimiter
  /** Sends webhook deliveries; started by `serve` (tests start it when they need it). */
  readonly webhooks: WebhookDispatcher
  readonly version: string
  /** Clock time at which this process started. */
  readonly startedAt: number
}

/** Who is asking, from where: what the audit log records of a request. */
export interface RequestMeta {
  readonly requestId: string
  /** The client's address (see http/client-ip.ts); null when unknown (in-process requests). */
  readonly ip: string | null
  readonly userAgent: string | null
}

/** An access token of a session (a login). */
export interface SessionCredential {
  readonly type: 'session'
  /** The session id (`sid`). */
  readonly id: string
  readonly tokenId: string
  /** Expiry of the presented token, in ms. */
  readonly tokenExpiresAt: number
  /** The organization requires MFA and the user has none yet: only the enrollment routes answer. */
  readonly mfaEnrollmentOnly: boolean
}

/** A personal access token. */
export interface ApiKeyCredential {
  readonly type: 'api_key'
  readonly id: string
}

/**
 * A user authenticated by an access token or a personal access token. Grants come from the user's
 * current role (narrowed by the token's own permissions for a personal access token), never from
 * what the token says.
 */
export interface UserActor {
  readonly kind: 'user'
  readonly userId: string
  readonly organizationId: string
  readonly role: Role
  readonly grants: readonly Grant[]
  readonly credential: SessionCredential | ApiKeyCredential
  readonly request: RequestMeta
  /** The organization's request rates as they are now (plan or set-limits values). */
  readonly rates: Rates
}

export type Actor = UserActor

/** An actor signed in with an access token (not a personal access token). */
export type SessionActor = UserActor & { readonly credential: SessionCredential }
