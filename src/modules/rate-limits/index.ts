// The rate-limits module's public entry: the limiter the HTTP layer charges requests to, its counters
// (in memory, or in Redis for several instances), the endpoint limits, the plans' rates, saving the long
// in-memory windows across restarts, and the operator verbs that change an organization's plan or rates.
export { ENDPOINT_LIMITS, type EndpointLimit, endpointLimitFor, LOGIN_LIMIT } from './endpoints.ts'
export {
  localRateCounters,
  memoryRateCounters,
  type RateAnswer,
  RateLimiter,
  rateLimiterOf,
  type RateLimitSettings,
  type RateOutcome,
} from './limiter.ts'
export { redisRateCounters, type RedisRateCountersOptions } from './redis-counters.ts'
export type { LocalRateCounters, RateCounters } from '../../ports.ts'
export { MAX_PER_DAY, MAX_PER_MINUTE, PLAN_RATES, type Rates, RATES_COLUMN, ratesFromColumn } from './plans.ts'
export { changePlan, changePlanInTx, changeRates, getOrganizationRates, type RatesView } from './change-rates.ts'
export { RATE_LIMIT_SAVE_INTERVAL_MS, rateLimitSaveTask } from './jobs.ts'
export { restoreRateCounters, saveRateCounters } from './store.ts'
