// The login attempt limit for every other place that checks a password with a token in hand (password
// change, MFA removal, MFA step-up): the same budget per client address and per e-mail address, so a
// stolen token buys no more guesses than the login form gives. Counted before the password is hashed.
import type { AppDeps } from '../../context.ts'
import { rateLimited } from '../../errors.ts'
import { normalizeEmail } from '../users/get-user.ts'

export function chargePasswordAttempt(deps: Pick<AppDeps, 'rateLimits' | 'clock'>, ip: string | null, email: string): void {
  if (!deps.rateLimits.enabled) return
  const outcome = deps.rateLimits.login(ip, normalizeEmail(email), deps.clock.now())
  if (!outcome.ok) throw rateLimited(outcome.retryAfterMs / 1000, outcome.message)
}
