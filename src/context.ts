// The service context: AppContext is built once at boot (or per test) and passed in explicitly; Ctx is
// that plus who is asking, the first parameter of every verb. Names interfaces only (ports.ts), never a
// module's concrete class.
import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import type { PageTokens } from './db/page-tokens.ts'
import type { Scheduler } from './jobs/scheduler.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import type { Referrers } from './references.ts'
import type { Grant, Role } from './vocabulary.ts'
import type {
  ClusterView,
  DeliveryService,
  EventSubscriber,
  IpAllowlists,
  LastSeen,
  Ports,
  RequestGuards,
  SigningKeys,
  TextMessages,
  UserSessions,
} from './ports.ts'

export interface AppContext {
  readonly config: Config
  readonly db: Database
  readonly clock: Clock
  readonly log: Logger
  /** State shared with the other instances (in memory for one process). */
  readonly ports: Ports
  readonly scheduler: Scheduler
  /** This instance among its peers: its name, Redis's state, the cluster's cron statuses. */
  readonly cluster: ClusterView
  readonly pageTokens: PageTokens
  /** Seals secrets at rest (TOTP secrets, webhook secrets); the signing keys have their own copy. */
  readonly masterKey: Uint8Array
  readonly keys: SigningKeys
  readonly sms: TextMessages
  readonly lastSeen: LastSeen
  readonly allowlists: IpAllowlists
  /** Authentication, permission checks, rate limits and idempotency as the HTTP layer reaches them (src/request-guards.ts). */
  readonly guards: RequestGuards
  /** Told of every event recordChange writes, in its transaction (webhooks queue deliveries). */
  readonly eventSubscribers: readonly EventSubscriber[]
  /** Ends a user's sessions (auth's, for the users module: src/runtime.ts). */
  readonly userSessions: UserSessions
  /** Other modules' records naming a contact or a ticket: what they do when it is deleted or merged (src/references.ts). */
  readonly referrers: Referrers
  /** Sends webhook deliveries (the manual sends of the webhooks module go through it). */
  readonly deliveries: DeliveryService
  readonly version: string
  /** Clock time at which this process started. */
  readonly startedAt: number
}

/** The system itself acting: the cron loop, an operator's CLI command, the first start. */
export interface SystemActor {
  readonly kind: 'system'
  // twilio: a call-status callback from Twilio (the voice-status receiver acts for nobody else);
  // stripe: an event from Stripe's webhooks; operator: a request with an operator token (credentialId);
  // survey_link: a respondent answering through a survey's one-time public link.
  readonly id: 'cron' | 'cli' | 'first_start' | 'twilio' | 'stripe' | 'operator' | 'survey_link'
  /** The operator token of an `operator` actor. */
  readonly credentialId?: string
}

/** The requests per minute and per day an organization may make (its plan's, or its own: the rate-limits module). */
export interface Rates {
  readonly perMinute: number
  readonly perDay: number
}

/** The first parameter of every verb: the app's context plus who is asking. */
export interface Ctx<A extends Actor = Actor> extends AppContext {
  readonly actor: A
}

/** The context of `actor` (a request's, or the system's). */
export function contextFor<A extends Actor>(app: AppContext, actor: A): Ctx<A> {
  return { ...app, actor }
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

/** An access token an OAuth client got for a user (authorization code, refresh): a third-party token. */
export interface OAuthCredential {
  readonly type: 'oauth'
  /** The session id (`sid`): the client's token family for this user. */
  readonly id: string
  readonly tokenId: string
  /** Expiry of the presented token, in ms. */
  readonly tokenExpiresAt: number
  readonly clientId: string
  /** The scopes the token carries. */
  readonly scopes: readonly string[]
}

/**
 * A client-credentials access token: the client acting for the user who registered it (or, registered
 * by the operator, for its organization's oldest active Super Admin), within its scopes.
 */
export interface OAuthClientCredential {
  readonly type: 'oauth_client'
  /** The client id (the token's `sub` and `sid`). */
  readonly id: string
  readonly tokenId: string
  /** Expiry of the presented token, in ms. */
  readonly tokenExpiresAt: number
  readonly clientId: string
  readonly scopes: readonly string[]
}

/**
 * A user authenticated by an access token or a personal access token. Grants come from the user's
 * current role (narrowed by the token's own permissions for a personal access token, by its scopes for
 * an OAuth client's token), never from what the token says.
 */
export interface UserActor {
  readonly kind: 'user'
  readonly userId: string
  readonly organizationId: string
  readonly role: Role
  readonly grants: readonly Grant[]
  readonly credential: SessionCredential | ApiKeyCredential | OAuthCredential | OAuthClientCredential
  readonly request: RequestMeta
  /** The organization's request rates as they are now (plan or set-limits values). */
  readonly rates: Rates
}

export type Actor = UserActor | SystemActor

/** An actor signed in with an access token (not a personal access token). */
export type SessionActor = UserActor & { readonly credential: SessionCredential }
