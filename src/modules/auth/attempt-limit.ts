// The login attempt limit for every other place that checks a password with a token in hand (password
// change, MFA removal, MFA step-up): the same budget per client address and per e-mail address, so a
// stolen token buys no more guesses than the login form gives. Counted before the password is hashed.
import type { AppContext } from '../../context.ts'
import { rateLimited } from '../../errors.ts'
import { type RateOutcome, rateLimiterOf } from '../rate-limits/index.ts'
import { normalizeEmail } from '../users/index.ts'

/** Throws the 429 of a spent budget: at once from counters in memory, as a rejection from Redis's (await it). */
export function chargePasswordAttempt(
  app: Pick<AppContext, 'config' | 'ports' | 'clock'>,
  ip: string | null,
  email: string,
): void | Promise<void> {
  const limiter = rateLimiterOf(app)
  if (!limiter.enabled) return
  const answer = limiter.login(ip, normalizeEmail(email), app.clock.now())
  if (answer instanceof Promise) return answer.then(refuseIfSpent)
  refuseIfSpent(answer)
}

function refuseIfSpent(outcome: RateOutcome): void {
  if (!outcome.ok) throw rateLimited(outcome.retryAfterMs / 1000, outcome.message)
}
