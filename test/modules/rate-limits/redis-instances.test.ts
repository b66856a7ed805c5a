// Rate limits of several instances on one real Redis: a user's budget is the plan's across the instances
// (not once per instance), and while Redis is away the limits fail open with one warning a minute,
// coming back by themselves when Redis does (restarted on the same port, or answering again).
import { afterAll, describe, expect, test } from 'bun:test'
import { openRedis } from '../../../src/db/redis.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { RateLimiter, type RateAnswer, type Rates, redisRateCounters } from '../../../src/modules/rate-limits/index.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { redisAvailable, startRedis } from '../../helpers/services.ts'
import { until } from '../../helpers/wait.ts'

const SETTINGS = { enabled: true, orgLimitFactor: 5, unauthPerMinute: 60 }
const FREE: Rates = { perMinute: 60, perDay: 1_000 }
const cleanups: Array<() => Promise<unknown> | undefined> = []

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** One instance's view: its own connection to the shared Redis, its own limiter and log. */
function instance(url: string, prefix: string, options: { timeoutMs?: number } = {}) {
  const sink = memorySink()
  const log = createLogger({ level: 'debug', sink })
  const redis = openRedis(url, { prefix, retryMs: 50 })
  cleanups.push(() => redis.close())
  const limiter = new RateLimiter(SETTINGS, redisRateCounters(redis, { log, ...options }))
  return { redis, limiter, sink }
}

const outcomes = async (answers: RateAnswer[]) => (await Promise.all(answers)).map((outcome) => outcome.ok)
const warnings = (sink: ReturnType<typeof memorySink>) => sink.records().filter((record) => record.level === 'warn')

describe.skipIf(!redisAvailable)('rate limits shared by two instances', () => {
  test("a user's per-minute budget is the plan's across both instances, not twice it", async () => {
    const server = await startRedis()
    cleanups.push(() => server.stop())
    const [a, b] = [instance(server.url, 'sb:two:'), instance(server.url, 'sb:two:')]
    await until(() => a.redis.connected && b.redis.connected, 'both instances connected')
    const now = Date.UTC(2026, 0, 1, 12, 0, 0)
    const remaining: number[] = []
    for (let i = 0; i < 60; i++) {
      const outcome = await (i % 2 === 0 ? a : b).limiter.user('usr_1', 'org_1', FREE, undefined, now + i)
      if (!outcome.ok) throw new Error(`request ${i + 1} refused: ${outcome.message}`)
      remaining.push(outcome.report.remaining)
    }
    // The X-RateLimit-Remaining a client sees counts down across the instances.
    expect(remaining.slice(0, 3)).toEqual([59, 58, 57])
    expect(remaining.at(-1)).toBe(0)
    for (const { limiter } of [a, b]) {
      const refused = await limiter.user('usr_1', 'org_1', FREE, undefined, now + 100)
      expect(refused).toMatchObject({ ok: false, message: 'Rate limit reached: 60 requests per minute for this user' })
    }
    // Another user of the organization has their own minute.
    expect(await b.limiter.user('usr_2', 'org_1', FREE, undefined, now + 100)).toMatchObject({ ok: true, report: { remaining: 59 } })
  })

  test('requests arriving at the same moment on both instances: exactly the budget is accepted', async () => {
    const server = await startRedis()
    cleanups.push(() => server.stop())
    const [a, b] = [instance(server.url, 'sb:race:'), instance(server.url, 'sb:race:')]
    await until(() => a.redis.connected && b.redis.connected, 'both instances connected')
    const now = Date.UTC(2026, 0, 1, 12, 0, 0)
    const answers = Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? a : b).limiter.login('192.0.2.1', `user${i}@example.com`, now))
    expect((await outcomes(answers)).filter(Boolean)).toHaveLength(10)
  })
})

describe.skipIf(!redisAvailable)('Redis unreachable: rate limits fail open', () => {
  test('accepted with one warning a minute; enforced again once Redis is back on the same port', async () => {
    const server = await startRedis()
    const port = Number(new URL(server.url).port)
    const clock = new FakeClock()
    const one = instance(server.url, 'sb:outage:', { timeoutMs: 200 })
    await until(() => one.redis.connected, 'connected')
    const rates: Rates = { perMinute: 3, perDay: 1_000 }
    const user = () => one.limiter.user('usr_1', 'org_1', rates, undefined, clock.now())
    expect(await outcomes([user(), user(), user(), user()])).toEqual([true, true, true, false])

    await server.pause()
    await until(() => !one.redis.connected, 'the connection lost')
    const during = await Promise.all(Array.from({ length: 10 }, user))
    const start = clock.now() - (clock.now() % 60_000)
    // As if each were the first request of its window.
    for (const outcome of during) expect(outcome).toEqual({ ok: true, report: { limit: 3, remaining: 2, resetAt: start + 120_000 } })
    expect(warnings(one.sink)).toHaveLength(1)
    const [warning] = warnings(one.sink)
    expect(warning).toMatchObject({ msg: 'rate limits not enforced: redis unreachable', error: expect.any(String) })
    expect(JSON.stringify(warning)).not.toContain(String(port))
    clock.advance(59_999)
    await user()
    expect(warnings(one.sink)).toHaveLength(1)
    clock.advance(1)
    await user()
    expect(warnings(one.sink)).toHaveLength(2)

    // The same address again (an empty Redis: it has forgotten the counts and the script).
    await server.resume()
    cleanups.push(() => server.stop())
    await until(() => one.redis.connected, 'reconnected')
    clock.advance(120_000)
    expect(await outcomes([user(), user(), user(), user()])).toEqual([true, true, true, false])
    expect(one.sink.records().filter((record) => record.msg === 'rate limits enforced again: redis reachable')).toHaveLength(1)

    // A Redis that stops answering (frozen, not gone) does not hold requests up either: the answer comes while
    // Redis is still frozen (how soon is the 200 ms timeout's business, not timed on a shared machine).
    process.kill(server.pid!, 'SIGSTOP')
    clock.advance(60_000)
    const frozen = Bun.sleep(15_000).then(() => 'still waiting' as const)
    expect(await Promise.race([user(), frozen])).toMatchObject({ ok: true, report: { limit: 3, remaining: 2 } })
    expect(warnings(one.sink).at(-1)?.error).toBe('redis did not answer within 200 ms')
    process.kill(server.pid!, 'SIGCONT')
    clock.advance(120_000)
    expect(await outcomes([user(), user(), user(), user()])).toEqual([true, true, true, false])
  }, 60_000)

  test('an instance started while Redis is down accepts requests', async () => {
    const server = await startRedis()
    const url = server.url
    await server.stop()
    const one = instance(url, 'sb:never:')
    expect(await one.limiter.anonymous('192.0.2.1', Date.UTC(2026, 0, 1))).toMatchObject({ ok: true, report: { limit: 60, remaining: 59 } })
    expect(warnings(one.sink)).toHaveLength(1)
  })
})
