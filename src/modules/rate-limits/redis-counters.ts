// The rateCounters port in Redis, for several instances behind a load balancer: one atomic script run
// per request (redis-script.ts), so a client spread over the instances gets its plan's budget once.
// Redis keeps the windows itself (with their expiry): nothing is saved to the database or swept here.
// Rate limits fail open: while Redis cannot answer, requests are accepted and a warning says so.
import type { SharedRedis } from '../../db/redis.ts'
import type { Logger } from '../../lib/log.ts'
import { firstOfWindow, type Verdict, type WindowCheck } from '../../lib/sliding-window.ts'
import { answerWithin } from '../../lib/timeout.ts'
import type { RateCounters } from '../../ports.ts'
import { SLIDING_WINDOW_SCRIPT } from './redis-script.ts'

const SCRIPT_SHA = new Bun.CryptoHasher('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex')
/** The unenforced-limits warning is repeated at most this often while Redis stays away. */
export const UNREACHABLE_WARNING_INTERVAL_MS = 60_000

export interface RedisRateCountersOptions {
  log: Logger
  /**
   * A Redis that does not answer in this long counts as unreachable (ms): a request never hangs on it. Time
   * this process was too busy to read the answer does not count (lib/timeout.ts).
   */
  timeoutMs?: number
}

export function redisRateCounters(redis: SharedRedis, options: RedisRateCountersOptions): RateCounters {
  const { log } = options
  const timeoutMs = options.timeoutMs ?? 500
  const keyPrefix = `${redis.prefix}rl:`
  let warnedAt = Number.NEGATIVE_INFINITY
  /** A warning was logged since Redis last answered: its answer is worth a line too. */
  let warned = false

  /** `args`: the script's SHA, then EVALSHA's arguments. */
  async function run(args: string[]): Promise<unknown> {
    try {
      return await redis.send('EVALSHA', args)
    } catch (error) {
      // A restarted (or flushed) Redis has forgotten the script: EVAL loads it again for the next EVALSHA.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
      return redis.send('EVAL', [SLIDING_WINDOW_SCRIPT, ...args.slice(1)])
    }
  }

  function failOpen(checks: readonly WindowCheck[], now: number, error: unknown): Verdict {
    if (now - warnedAt >= UNREACHABLE_WARNING_INTERVAL_MS) {
      warnedAt = now
      warned = true
      log.warn('rate limits not enforced: redis unreachable', { error: messageOf(error) })
    }
    return { accepted: true, report: firstOfWindow(checks[0]!, now) }
  }

  return {
    async hit(checks, now) {
      if (checks.length === 0) return { accepted: true, report: { limit: 0, remaining: 0, resetAt: now } }
      const args = [SCRIPT_SHA, String(checks.length)]
      for (const check of checks) args.push(keyPrefix + check.key)
      args.push(String(now))
      for (const check of checks) args.push(String(check.limit), String(check.windowMs))
      let reply: unknown
      try {
        reply = await answerWithin(run(args), timeoutMs, `redis did not answer within ${timeoutMs} ms`)
      } catch (error) {
        return failOpen(checks, now, error)
      }
      if (warned) {
        warned = false
        log.info('rate limits enforced again: redis reachable')
      }
      return verdictOf(reply as number[], checks, now)
    },
  }
}

/** The script's answer as SlidingWindows.hit gives it. */
function verdictOf(reply: readonly number[], checks: readonly WindowCheck[], now: number): Verdict {
  const [accepted, index, remaining, resetAt] = reply as [number, number, number, number]
  const check = checks[index - 1]!
  const report = { limit: check.limit, remaining, resetAt }
  if (accepted === 1) return { accepted: true, report }
  return { accepted: false, check, retryAfterMs: resetAt - now, report }
}

/** The error's message without any redis:// address in it (it could carry a password). */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/rediss?:\/\/\S*/g, 'redis://…')
}
