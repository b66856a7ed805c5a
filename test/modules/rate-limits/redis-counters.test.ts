// redisRateCounters against a real redis-server: exactly SlidingWindows' verdicts for randomized hits
// (window edges included), its keys and their expiry, and the script loaded again after SCRIPT FLUSH.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openRedis, type SharedRedis } from '../../../src/db/redis.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { SlidingWindows, type Verdict, type WindowCheck } from '../../../src/lib/sliding-window.ts'
import { redisRateCounters } from '../../../src/modules/rate-limits/index.ts'
import type { RateCounters } from '../../../src/ports.ts'
import { type RunningService, redisAvailable, startRedis } from '../../helpers/services.ts'

const MINUTE = 60_000
const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)

let server: RunningService
let redis: SharedRedis
const sink = memorySink()
const log = createLogger({ level: 'debug', sink })

beforeAll(async () => {
  server = await startRedis()
  redis = openRedis(server.url, { prefix: `sb:equivalence${Bun.nanoseconds()}:` })
  for (let i = 0; i < 200 && !redis.connected; i++) await Bun.sleep(10)
})

afterAll(async () => {
  await redis?.close()
  await server?.stop()
})

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Hits both with the same checks at the same times; every verdict must be the same. */
async function replay(seed: number, specs: Array<Omit<WindowCheck, 'key'>>, steps: number): Promise<{ refusedBy: number[] }> {
  const next = random(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  const checks: WindowCheck[] = specs.map((spec, i) => ({ key: `eq:${seed}:${i}`, ...spec }))
  const memory = new SlidingWindows(1_000)
  const shared = redisRateCounters(redis, { log })
  const shortest = Math.min(...specs.map((spec) => spec.windowMs))
  let now = T0 + Math.floor(next() * DAY)
  let last: Verdict | undefined
  const refusedBy = specs.map(() => 0)
  for (let step = 0; step < steps; step++) {
    // Mostly the shortest window's scale, so the longer budgets fill up too.
    const windowMs = next() < 0.9 ? shortest : pick(checks).windowMs
    const edge = now - (now % windowMs) + windowMs
    const jump = next()
    // Mostly small moves; often exactly at (or one ms off) a window edge or the last verdict's reset.
    if (jump < 0.4) now += Math.floor(next() * 3)
    else if (jump < 0.6) now += Math.floor(next() * windowMs * 0.3)
    else if (jump < 0.75) now = edge + pick([-1, 0, 1])
    else if (jump < 0.9 && last && last.report.resetAt > now) now = last.report.resetAt + pick([-1, 0])
    else if (jump < 0.97) now += Math.floor(next() * windowMs)
    else now += Math.floor(next() * 3 * windowMs)
    const order = [...checks].sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * checks.length))
    const expected = memory.hit(order, now)
    const got = await shared.hit(order, now)
    if (!Bun.deepEquals(got, expected)) throw new Error(`seed ${seed}, step ${step}, now ${now}: ${JSON.stringify({ got, expected })}`)
    if (!expected.accepted) refusedBy[checks.indexOf(expected.check)]!++
    last = expected
  }
  return { refusedBy }
}

describe.skipIf(!redisAvailable)('redisRateCounters: the same verdicts as SlidingWindows', () => {
  test.each([1, 2, 3, 4, 5, 6])('random hits on small budgets and short windows (seed %i)', async (seed) => {
    const { refusedBy } = await replay(
      seed,
      [
        { limit: 1, windowMs: 1_000 },
        { limit: 3, windowMs: 1_000 },
        { limit: 5, windowMs: 7_000 },
        { limit: 2, windowMs: 997 },
      ],
      800,
    )
    // Every budget runs out at times, so refusals (and their retry times) are compared too.
    for (const refusals of refusedBy) expect(refusals).toBeGreaterThan(10)
  })

  test.each([11, 12, 14, 15])('minute and day windows as the limiter uses them (seed %i)', async (seed) => {
    const { refusedBy } = await replay(
      seed,
      [
        { limit: 3, windowMs: MINUTE },
        { limit: 2, windowMs: 10_000 },
        { limit: 20, windowMs: 60 * MINUTE },
        { limit: 40, windowMs: DAY },
      ],
      1_500,
    )
    for (const refusals of refusedBy) expect(refusals).toBeGreaterThan(5)
  })

  test('budgets as large as the biggest plans', async () => {
    await replay(
      21,
      [
        { limit: 5_000_000, windowMs: MINUTE },
        { limit: 500_000_000, windowMs: DAY },
      ],
      200,
    )
  })

  test('no checks: accepted, nothing counted', async () => {
    const counters = redisRateCounters(redis, { log })
    expect(await counters.hit([], T0)).toEqual(new SlidingWindows(10).hit([], T0))
  })
})

describe.skipIf(!redisAvailable)('redisRateCounters: keys and script', () => {
  const hitTwice = async (counters: RateCounters, check: WindowCheck) => {
    await counters.hit([check], T0)
    return counters.hit([check], T0 + 1)
  }

  test('one hash per check under the deployment prefix, expiring after two windows', async () => {
    const counters = redisRateCounters(redis, { log })
    await hitTwice(counters, { key: 'u:keys:m', limit: 5, windowMs: MINUTE })
    const key = `${redis.prefix}rl:u:keys:m`
    expect(await redis.send('HGETALL', [key])).toEqual({ s: String(T0 - (T0 % MINUTE)), c: '2', p: '0', w: String(MINUTE) })
    const ttl = Number(await redis.send('PTTL', [key]))
    expect(ttl).toBeGreaterThan(2 * MINUTE - 5_000)
    expect(ttl).toBeLessThanOrEqual(2 * MINUTE)
  })

  test('a Redis that forgot the script (restart, SCRIPT FLUSH) is given it again', async () => {
    const counters = redisRateCounters(redis, { log })
    await counters.hit([{ key: 'flush', limit: 2, windowMs: MINUTE }], T0)
    await redis.send('SCRIPT', ['FLUSH'])
    const verdict = await counters.hit([{ key: 'flush', limit: 2, windowMs: MINUTE }], T0)
    expect(verdict).toMatchObject({ accepted: true, report: { limit: 2, remaining: 0 } })
    expect(sink.records().filter((record) => record.level === 'warn')).toEqual([])
  })
})
