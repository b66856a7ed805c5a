// RateLimiter: every request-rate limit of the spec as checks on sliding windows (the rateCounters
// port: in memory for one process, in Redis for several): per user and per organization at the plan's rates (the
// organization's multiplied by ORG_LIMIT_FACTOR), per client address for unauthenticated requests, and
// the endpoint limits. Framework-free: it answers with a report (the X-RateLimit-* values) or a refusal;
// the HTTP layer turns those into headers and 429s.
import { clientNetwork } from '../../lib/cidr.ts'
import { SlidingWindows, type Verdict, type WindowCheck } from '../../lib/sliding-window.ts'
import type { Config } from '../../config.ts'
import type { EndpointLimit, LocalRateCounters, Ports, RateAnswer, RateCounters, RateOutcome, RequestRateLimiter } from '../../ports.ts'
import { LOGIN_LIMIT } from './endpoints.ts'
import type { Rates } from './plans.ts'

export interface RateLimitSettings {
  readonly enabled: boolean
  readonly orgLimitFactor: number
  readonly unauthPerMinute: number
}

export type { RateAnswer, RateOutcome } from '../../ports.ts'

interface Check extends WindowCheck {
  /** Whose budget it is, for the refusal's message (built only then: this runs on every request). */
  readonly scope: string
}

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000
/** Counters kept in memory at most (~200 bytes each); beyond it the oldest are dropped. */
export const MAX_KEYS = 200_000
/** Windows at least this long (the daily quotas, the hourly upload limit) are saved across restarts. */
export const SAVED_WINDOW_MS = 60 * 60 * 1000

/** The in-memory counters of one process (the rateCounters port's implementation without Redis). */
export function memoryRateCounters(): LocalRateCounters {
  return new SlidingWindows(MAX_KEYS, SAVED_WINDOW_MS)
}

/** `counters` if they are this process's own (saved to the database across restarts); undefined for Redis's. */
export function localRateCounters(counters: RateCounters): LocalRateCounters | undefined {
  return counters instanceof SlidingWindows ? counters : undefined
}

/**
 * What a limiter answers: at once from counters in memory, a promise from counters in Redis. Callers
 * await only a promise (`if (outcome instanceof Promise)`), so the one-process path allocates nothing more.
 */

export class RateLimiter implements RequestRateLimiter {
  constructor(
    readonly settings: RateLimitSettings,
    /** The counters it checks and counts on (shared by every limiter of the app). */
    readonly windows: RateCounters = memoryRateCounters(),
  ) {}

  get enabled(): boolean {
    return this.settings.enabled
  }

  /** An authenticated request of `userId` (by token or personal access token); `endpoint`: its route's own limit. */
  user(userId: string, organizationId: string, rates: Rates, endpoint: EndpointLimit | undefined, now: number): RateAnswer {
    const factor = this.settings.orgLimitFactor
    const checks: Check[] = [
      { key: `u:${userId}:m`, limit: rates.perMinute, windowMs: MINUTE_MS, scope: 'requests per minute for this user' },
      { key: `u:${userId}:d`, limit: rates.perDay, windowMs: DAY_MS, scope: 'requests per day for this user' },
      {
        key: `o:${organizationId}:m`,
        limit: rates.perMinute * factor,
        windowMs: MINUTE_MS,
        scope: 'requests per minute for this organization',
      },
      { key: `o:${organizationId}:d`, limit: rates.perDay * factor, windowMs: DAY_MS, scope: 'requests per day for this organization' },
    ]
    if (endpoint) {
      // An organization's budget has its own key space: an id of one kind never counts against the other's.
      const key = endpoint.per === 'organization' ? `eo:${endpoint.name}:${organizationId}` : `e:${endpoint.name}:${userId}`
      checks.push({ key, limit: endpoint.limit, windowMs: endpoint.windowMs, scope: endpoint.scope })
    }
    return this.hit(checks, now)
  }

  /** A request that is not (or not yet) authenticated, from `ip` (null: unknown, in-process). */
  anonymous(ip: string | null, now: number): RateAnswer {
    const limit = this.settings.unauthPerMinute
    return this.hit(
      [{ key: `a:${network(ip)}`, limit, windowMs: MINUTE_MS, scope: 'unauthenticated requests per minute from this address' }],
      now,
    )
  }

  /** A login attempt: checked before the password is looked at. */
  login(ip: string | null, email: string, now: number): RateAnswer {
    const { perIpPerMinute, perEmailPerMinute, windowMs } = LOGIN_LIMIT
    return this.hit(
      [
        { key: `li:${network(ip)}`, limit: perIpPerMinute, windowMs, scope: 'login attempts per minute from this address' },
        { key: `le:${email}`, limit: perEmailPerMinute, windowMs, scope: 'login attempts per minute for this e-mail address' },
      ],
      now,
    )
  }

  private hit(checks: Check[], now: number): RateAnswer {
    const verdict = this.windows.hit(checks, now)
    return verdict instanceof Promise ? verdict.then(outcomeOf) : outcomeOf(verdict)
  }
}

function outcomeOf(verdict: Verdict): RateOutcome {
  if (verdict.accepted) return { ok: true, report: verdict.report }
  return {
    ok: false,
    report: verdict.report,
    retryAfterMs: verdict.retryAfterMs,
    message: `Rate limit reached: ${verdict.check.limit} ${(verdict.check as Check).scope}`,
  }
}

function network(ip: string | null): string {
  return ip === null ? '-' : clientNetwork(ip)
}

// The rules are a few numbers: one limiter per counters port (per app), built on first use.
const limiters = new WeakMap<RateCounters, RateLimiter>()

/** The app's rate limiter: the configured rules over its rateCounters port. */
export function rateLimiterOf(app: {
  readonly config: Pick<Config, 'rateLimits'>
  readonly ports: Pick<Ports, 'rateCounters'>
}): RateLimiter {
  const counters = app.ports.rateCounters
  let limiter = limiters.get(counters)
  if (!limiter) limiters.set(counters, (limiter = new RateLimiter(app.config.rateLimits, counters)))
  return limiter
}
