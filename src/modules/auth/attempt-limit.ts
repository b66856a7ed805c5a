// The login attempt limit for every other place that checks a password with a token in hand (password
// change, MFA removal, MFA step-up): the same budget per client address and per e-mail address, so a
// stolen token buys no more guesses than the login form gives. Counted before the password is hashed.
import type { AppContext } from '../../context.ts'
import { rateLimited } from '../../errors.ts'
import type { Clock } from '../../lib/clock.ts'
import { type RateLimiter, rateLimiterOf } from '../rate-limits/index.ts'
import { normalizeEmail } from '../users/index.ts'

/** The app (its configured limiter over its counters), or TRANSITIONAL (issue 13) a limiter already in hand. */
type Limits = Pick<AppContext, 'config' | 'ports' | 'clock'> | { readonly rateLimits: RateLimiter; readonly clock: Clock }

export function chargePasswordAttempt(app: Limits, ip: string | null, email: string): void {
  const limiter = 'rateLimits' in app ? app.rateLimits : rateLimiterOf(app)
  if (!limiter.enabled) return
  const outcome = limiter.login(ip, normalizeEmail(email), app.clock.now())
  if (!outcome.ok) throw rateLimited(outcome.retryAfterMs / 1000, outcome.message)
}
