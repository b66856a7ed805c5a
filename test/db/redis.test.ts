// The shared Redis handle (src/db/redis.ts) against a real redis-server: messages flow; while Redis is
// away publish says false and nothing hangs; when it is back the subscriptions are made again and their
// listeners told to catch up; a subscription that went silent without its socket closing (a frozen
// server) is noticed within a few seconds and made again once the server answers.
import { afterAll, describe, expect, test } from 'bun:test'
import { openRedis, redisPrefixOf } from '../../src/db/redis.ts'
import { redisAvailable, startRedis } from '../helpers/services.ts'
import { until } from '../helpers/wait.ts'

const started = redisAvailable ? await startRedis() : undefined

describe.skipIf(!redisAvailable)('SharedRedis', () => {
  // A describe callback cannot await: the server was started above (top-level await), when installed.
  const server = started
  if (!server) return
  const errors: string[] = []
  const redis = openRedis(server.url, { prefix: 'sb:test:', retryMs: 200, onError: (what) => errors.push(what) })
  const received: string[] = []
  let resumed = 0
  redis.subscribe(
    'news',
    (message) => received.push(message),
    () => resumed++,
  )
  afterAll(async () => {
    await redis.close()
    await server.stop()
  })

  test('keys are named after the database', () => {
    expect(redisPrefixOf('postgres://u:p@db:5432/switchboard_eu')).toBe('sb:switchboard_eu:')
    expect(redisPrefixOf(undefined)).toBe('sb:embedded:')
  })

  test('a message published reaches the subscriber', async () => {
    await until(() => redis.subscribed, 'the subscription')
    expect(await redis.publish('news', 'one')).toBe(true)
    await until(() => received.includes('one'), 'the message')
  })

  test('Redis gone: publish answers false, never waiting for its return; back: subscribed again, listeners told to catch up', async () => {
    await server.pause()
    await until(() => !redis.connected, 'the loss to be seen')
    // Redis stays away longer than this: a publish queued for its return would still be waiting. How soon the
    // answer comes is not timed here (a loaded machine decides that); it is false, not a hang.
    const hung = Bun.sleep(10_000).then(() => 'still waiting' as const)
    expect(await Promise.race([redis.publish('news', 'lost'), hung])).toBe(false)
    // Reported by the retry loop's next attempt (every 200 ms here).
    await until(() => errors.includes('redis unreachable'), 'the outage to be reported')
    await server.resume()
    await until(() => redis.subscribed && resumed === 1, 'the subscription again')
    expect(await redis.publish('news', 'two')).toBe(true)
    await until(() => received.includes('two'), 'the message after the return')
    expect(received).not.toContain('lost')
  }, 60_000)

  test('a frozen Redis: the silent subscription is noticed, and made again once Redis answers', async () => {
    process.kill(server.pid!, 'SIGSTOP')
    try {
      await until(() => !redis.subscribed, 'the silence to be noticed', 30_000)
      expect(errors).toContain('redis subscription silent')
    } finally {
      process.kill(server.pid!, 'SIGCONT')
    }
    await until(() => redis.subscribed && resumed === 2, 'the subscription again')
    expect(await redis.publish('news', 'three')).toBe(true)
    await until(() => received.includes('three'), 'the message after the thaw')
  }, 60_000)
})
