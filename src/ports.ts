// The state an instance shares with its peers, behind small interfaces: one process keeps it in memory
// (the implementations beside the modules that use it); several instances will keep it in Redis. The
// context carries these, never a module's concrete class.
import type { Verdict, WindowCheck, WindowCount, WindowReport } from './lib/sliding-window.ts'

/** Revoked access tokens (by `jti`) and ended sessions, kept until the tokens they stop would expire. */
export interface RevocationList {
  /**
   * The per-request check: whether the token or its session is revoked. A boolean from memory; a promise
   * (the database's answer) while this instance may have missed another's revocations (fail closed).
   */
  revoked(jti: string, sessionId: string): boolean | Promise<boolean>
  /** What this instance holds in memory (no fallback). */
  isTokenRevoked(jti: string): boolean
  isSessionRevoked(sessionId: string): boolean
  rememberToken(jti: string, expiresAt: number): void
  rememberSession(sessionId: string, accessExpiresAt: number): void
  /** Forgets entries whose tokens have expired; returns how many. */
  prune(now: number): number
}

/** What an access token says, once its signature, issuer, audience and times were checked. */
export interface VerifiedClaims {
  sub: string
  jti: string
  sid: string
  organizationId: string
  /** Unix seconds. */
  exp: number
  /** Issued to a user who must enroll in MFA first: good for the enrollment routes only. */
  mfaEnrollmentOnly: boolean
  /** Issued to an OAuth client (`client_id`); with `sub` equal to it, a client-credentials token. */
  clientId?: string
  /** The OAuth token's scopes (`scope`, space-separated). */
  scope?: string
}

/** Access tokens already verified, so a known token skips the RSA check. */
export interface VerifiedTokenCache {
  get(token: string, nowS: number): VerifiedClaims | 'expired' | undefined
  remember(token: string, claims: VerifiedClaims): void
  readonly size: number
}

/**
 * Request counters of the rate limits: sliding windows, checked and counted in one step. In memory the
 * answer is synchronous (callers await only a promise, so the one-process path costs nothing more);
 * in Redis it is a promise that never rejects (an unreachable Redis accepts: rate limits fail open).
 */
export interface RateCounters {
  hit(checks: readonly WindowCheck[], now: number): Verdict | Promise<Verdict>
}

/** Counters in this process's memory: the long windows are saved to the database across restarts. */
export interface LocalRateCounters extends RateCounters {
  readonly size: number
  hit(checks: readonly WindowCheck[], now: number): Verdict
  restore(key: string, saved: Omit<WindowCount, 'dirty'>): void
  takeDirty(): Array<[string, WindowCount]>
  sweep(now: number): number
}

/**
 * Wake-ups after a commit: "deliveries were queued" reaches every dispatcher, and "events were written
 * for organization X" every open event stream (GET /api/v1/events/stream), of every instance. A signal
 * only says where to look: the listeners read the database (nothing is carried, so nothing is lost twice).
 */
export interface Wakeups {
  onDeliveriesQueued(listener: () => void): () => void
  deliveriesQueued(): void
  /**
   * Calls `listener` with the organization after a commit wrote events of it; with null when signals may
   * have been missed (a Redis subscription made again): every organization should look. Returns the unsubscribe.
   */
  onEventsWritten(listener: (organizationId: string | null) => void): () => void
  eventsWritten(organizationId: string): void
}

/**
 * Claimed webhook deliveries waiting for a free sender, fair between webhooks. Local to an instance:
 * which instance sends a delivery is decided by its claim in the database, not here.
 */
export interface ReadyQueue<Job> {
  readonly size: number
  countFor(webhookId: string): number
  push(job: Job): void
  take(canStart: (job: Job) => boolean): Job[]
  takeFor(webhookId: string): Job[]
  drain(): Job[]
}

/** This instance among its peers (several instances on PostgreSQL + Redis; one process alone otherwise). */
export interface ClusterView {
  /** INSTANCE_ID. */
  readonly instanceId: string
  /** `none` without REDIS_URL. */
  redisState(): 'none' | 'ok' | 'unreachable'
  /** The cluster tasks as their last runner shared them; undefined when nothing is shared (one process, or Redis away). */
  sharedCronStatus(): Promise<Record<string, import('./jobs/scheduler.ts').TaskStatus> | undefined>
}

/**
 * The event streams each user holds open, counted on every instance: a slot is a lease, renewed at each
 * heartbeat, so an instance that dies without releasing its streams frees them when the leases lapse.
 */
export interface StreamSlots {
  /** Takes a slot for `streamId` until `expiresAt`; false when `userId` already holds `max` unexpired ones. */
  acquire(userId: string, streamId: string, max: number, now: number, expiresAt: number): Promise<boolean>
  /** Extends a slot held (at a heartbeat). */
  renew(userId: string, streamId: string, expiresAt: number): Promise<void>
  release(userId: string, streamId: string): Promise<void>
}

export interface Ports {
  readonly revocations: RevocationList
  readonly verifiedTokens: VerifiedTokenCache
  readonly rateCounters: RateCounters
  readonly wakeups: Wakeups
  readonly streamSlots: StreamSlots
}

// Services one module offers the others, as the context carries them. Their implementations live in
// the modules (keys, mfa, auth, organizations, webhooks); the composition root wires them.

/** The signing keys of access and ID tokens (RS256). */
export interface SigningKeys {
  /** The key that signs at `now` (read through `db`: a transaction's, or the read connection). */
  signer(now: number, db?: import('./db/database.ts').Queries): Promise<{ kid: string }>
  sign(kid: string, payload: Record<string, unknown>): Promise<string>
  /** Remembers that `kid` signed a token valid until `expiresAt`, in the caller's transaction. */
  recordUse(tx: import('./db/database.ts').Tx, kid: string, expiresAt: number): Promise<void>
  /** The public key of `kid` for the hot-path check, if it is known (synchronous: it runs per request). */
  verificationKey(kid: string): import('node:crypto').KeyObject | undefined
  /**
   * Loads keys added since (a rotation by another process) when a token names an unknown `kid`; at most
   * once a second, so unknown kids cannot make every request read the database. True when a key came.
   */
  reloadKeys(): Promise<boolean>
}

/** Where MFA text messages go. */
export interface TextMessages {
  readonly provider: string
  send(to: string, text: string): Promise<void>
}

/** Organizations' IP allowlists as the request path checks them (the organizations module keeps them). */
export interface IpAllowlists {
  /** The ranges of a stored `allowed_ips` value (JSON array text); empty: every address. */
  ranges(stored: string): readonly import('./lib/cidr.ts').Cidr[]
  /** True when a denial of `ip` should be written to the audit log (throttled per address and organization). */
  denialDue(organizationId: string, ip: string | null, now: number): boolean
}

/** Throttled last-seen writes of sessions and API keys. */
export interface LastSeen {
  session(sessionId: string, now: number): void
  apiKey(keyId: string, ip: string | null, now: number): void
}

/** Sends queued webhook deliveries; started by `serve` (tests start it when they need it). */
export interface DeliveryService {
  start(): unknown
  stop(): Promise<void>
  settled(): Promise<void>
  /**
   * Sends one delivery that the caller wrote already claimed (a test send, a manual retry) through the
   * real pipeline, now, and resolves once its outcome is recorded; nothing if it is gone meanwhile.
   */
  sendNow(deliveryId: string): Promise<void>
}

/** An event just written in a transaction, as its subscribers (webhooks) see it. */
export interface RecordedEvent {
  id: string
  organizationId: string
  type: string
  /** The envelope, serialized once; deliveries send these bytes unchanged. */
  body: string
  createdAt: number
}

/** Called inside the transaction that recorded the event: what it writes commits with the change (the outbox). */
export type EventSubscriber = (tx: import('./db/database.ts').Tx, event: RecordedEvent) => Promise<void>

/**
 * Ends every live session of a user inside the caller's transaction; its access tokens are refused from
 * the next request on. The auth module implements it (src/runtime.ts wires it); the users module calls it
 * when it disables a user, and must not import auth, which imports users.
 */
export interface UserSessions {
  endAll(
    app: { readonly ports: Ports },
    tx: import('./db/database.ts').Tx,
    userId: string,
    reason: 'user_disabled',
    now: number,
  ): Promise<void>
}

/** A route's own request limit (the rate-limits module declares them; the HTTP layer looks them up). */
export interface EndpointLimit {
  /** Name used in counter keys and messages. */
  readonly name: string
  readonly method: string
  /** Route path, or a prefix ending in `/*` that covers every route under it. */
  readonly path: string
  readonly limit: number
  readonly windowMs: number
  /** Whose budget it is: each user's, or the organization's (all its users together). */
  readonly per: 'user' | 'organization'
  /** For the refusal's message, after the limit: "100 <scope>". */
  readonly scope: string
}

/** A rate limit's answer: the X-RateLimit-* values, or a refusal. */
export type RateOutcome =
  | { readonly ok: true; readonly report: WindowReport }
  | { readonly ok: false; readonly report: WindowReport; readonly retryAfterMs: number; readonly message: string }
/** Synchronous from memory; a promise from Redis. */
export type RateAnswer = RateOutcome | Promise<RateOutcome>

/** The checks the HTTP layer makes of a request's rates (the rate-limits module's RateLimiter). */
export interface RequestRateLimiter {
  readonly enabled: boolean
  user(
    userId: string,
    organizationId: string,
    rates: import('./context.ts').Rates,
    endpoint: EndpointLimit | undefined,
    now: number,
  ): RateAnswer
  anonymous(ip: string | null, now: number): RateAnswer
  login(ip: string | null, email: string, now: number): RateAnswer
}

/** An Idempotency-Key's claim, as the idempotency module keeps it. */
export interface ClaimRef {
  scope: string
  key: string
  createdAt: number
}

/** An answer as kept: the status, the headers worth replaying, the body's exact text. */
export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export interface BeginInput {
  /** The credential's user id: keys are per user (an operator's: `operator:<token id>`). */
  scope: string
  /** null: the operator's, above every organization. */
  organizationId: string | null
  key: string
  requestHash: string
}

/** The handler may run (and its answer be saved under `claim`), or the saved answer is the answer. */
export type Begun = { kind: 'claimed'; claim: ClaimRef } | { kind: 'replay'; answer: StoredAnswer }

export interface FinishInput {
  claim: ClaimRef
  /** The answer to keep; undefined to free the key instead. */
  answer: StoredAnswer | undefined
}

/**
 * What the HTTP layer asks of the auth, access, operators, rate-limits and idempotency modules, wired by
 * runtime.ts: src/http/ imports no module (every module's routes import src/http/, so the way back would
 * be an import cycle).
 */
export interface RequestGuards {
  /** The actor of a request, or 401 (and the IP allowlist's 403). */
  authenticate(
    app: import('./context.ts').AppContext,
    request: Request,
    meta: import('./context.ts').RequestMeta,
  ): Promise<import('./context.ts').UserActor>
  /** The 401 of a protected route's request that carries no credential. */
  missingCredential(): Error
  authenticateOperator(
    app: import('./context.ts').AppContext,
    request: Request,
  ): Promise<import('./context.ts').Ctx<import('./context.ts').SystemActor>>
  /** The 401 of an operator route's request that carries no operator token. */
  missingOperatorToken(): Error
  requirePermission(actor: import('./context.ts').UserActor, permission: import('./vocabulary.ts').Permission): void
  requireSession(actor: import('./context.ts').UserActor): import('./context.ts').SessionActor
  /** The app's rate limiter over its rateCounters port. */
  rateLimiter(app: Pick<import('./context.ts').AppContext, 'config' | 'ports'>): RequestRateLimiter
  endpointLimitFor(method: string, route: string): EndpointLimit | undefined
  /** The form in which an e-mail address is counted (and stored). */
  normalizeEmail(email: string): string
  readonly idempotency: {
    isWellFormedKey(key: string): boolean
    requestHash(masterKey: Uint8Array, request: { method: string; pathWithQuery: string; body: string }): string
    /** Claims the key for this request (the handler runs), or finds its kept answer (replayed); 409 while in use, 422 when reused. */
    begin(app: Pick<import('./context.ts').AppContext, 'db' | 'clock' | 'log'>, input: BeginInput): Promise<Begun>
    /** Keeps the answer under the claim (undefined: frees the key); false when the claim was taken over. */
    finish(app: Pick<import('./context.ts').AppContext, 'db'>, input: FinishInput): Promise<boolean>
  }
}
