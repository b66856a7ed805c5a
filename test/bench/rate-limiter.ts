// The rate limiter's own cost, in-process: what one authenticated request adds (four sliding windows),
// measured over many users so the counters do not all sit in the CPU cache.
import { RateLimiter } from '../../src/modules/rate-limits/limiter.ts'
import { PLAN_RATES } from '../../src/modules/rate-limits/plans.ts'

export function benchRateLimiter(users = 10_000, requests = 2_000_000) {
  const limiter = new RateLimiter({ enabled: true, orgLimitFactor: 5, unauthPerMinute: 60 })
  const rates = { perMinute: 1_000_000_000, perDay: 1_000_000_000 }
  const ids = Array.from({ length: users }, (_, i) => `usr_${i.toString().padStart(26, '0')}`)
  const orgs = Array.from({ length: 100 }, (_, i) => `org_${i.toString().padStart(26, '0')}`)
  let now = Date.UTC(2026, 0, 1)
  for (let i = 0; i < 100_000; i++) limiter.user(ids[i % users]!, orgs[i % 100]!, rates, undefined, now)
  const started = performance.now()
  for (let i = 0; i < requests; i++) {
    if (i % 1000 === 0) now += 1
    limiter.user(ids[i % users]!, orgs[i % 100]!, rates, undefined, now)
  }
  const nsPerRequest = ((performance.now() - started) * 1e6) / requests
  // Refusals: one Free user far over its minute.
  const free = PLAN_RATES.free
  for (let i = 0; i < 100; i++) limiter.user('usr_free', 'org_free', free, undefined, now)
  const refusalsStarted = performance.now()
  for (let i = 0; i < 200_000; i++) limiter.user('usr_free', 'org_free', free, undefined, now)
  const nsPerRefusal = ((performance.now() - refusalsStarted) * 1e6) / 200_000
  return { users, nsPerRequest, nsPerRefusal }
}

if (import.meta.main) console.log(benchRateLimiter())
