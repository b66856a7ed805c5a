// Bench helper for cluster-latency.ts: how long an instance waits on a Redis that is gone or frozen, in process
// (one real Redis, the production defaults of src/db/redis.ts and redisRateCounters): a publish while Redis
// is stopped, and a rate-limit check failing open while Redis is frozen with SIGSTOP. Raw samples in ms.
import { openRedis } from '../../src/db/redis.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { RateLimiter, redisRateCounters } from '../../src/modules/rate-limits/index.ts'
import { startRedis } from '../helpers/services.ts'

export interface RedisOutageSamples {
  /** `publish` answering false, Redis stopped (the connection's loss already seen). */
  publishGone: number[]
  /** A user's rate-limit check answering (failing open), Redis frozen. */
  checkFrozen: number[]
}

/** Until `condition` holds; fails after 20 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition(); await Bun.sleep(5))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
}

export async function benchRedisOutage(samples: number): Promise<RedisOutageSamples> {
  const server = await startRedis()
  // No retryMs and no timeoutMs: an instance's own (1 s between reconnection attempts, 500 ms for a check).
  const redis = openRedis(server.url, { prefix: 'sb:latency:' })
  // The limits' "not enforced" warning goes to memory: the table is the output here.
  const log = createLogger({ level: 'warn', sink: memorySink() })
  const limiter = new RateLimiter({ enabled: true, orgLimitFactor: 5, unauthPerMinute: 60 }, redisRateCounters(redis, { log }))
  const rates = { perMinute: 1_000_000, perDay: 100_000_000 }
  const check = () => limiter.user('usr_bench', 'org_bench', rates, undefined, Date.now())
  let frozen = false
  try {
    if (!(await redis.ready(10_000))) throw new Error('Redis did not answer')
    // Warm: the first check loads the script (NOSCRIPT, then EVAL); both calls answered by a live Redis.
    if (!(await redis.publish('latency', 'warm')) || !(await check()).ok) throw new Error('Redis did not answer')

    await server.pause()
    await until(() => !redis.connected, 'the loss of Redis to be seen')
    const publishGone: number[] = []
    for (let i = 0; i < samples; i++) {
      const started = performance.now()
      if (await redis.publish('latency', String(i))) throw new Error('a publish succeeded with Redis stopped')
      publishGone.push(performance.now() - started)
      // Spread over more than a second, so that some land while the retry loop is reconnecting.
      await Bun.sleep(50)
    }

    await server.resume()
    await until(() => redis.connected, 'Redis to be back')
    if (!(await check()).ok) throw new Error('the check failed with Redis back')
    process.kill(server.pid!, 'SIGSTOP')
    frozen = true
    const checkFrozen: number[] = []
    for (let i = 0; i < samples; i++) {
      const started = performance.now()
      if (!(await check()).ok) throw new Error('a check was refused with Redis frozen')
      checkFrozen.push(performance.now() - started)
    }
    return { publishGone, checkFrozen }
  } finally {
    if (frozen && server.pid !== undefined) process.kill(server.pid, 'SIGCONT')
    await redis.close()
    await server.stop()
  }
}
