// The shared Redis handle (src/db/redis.ts) against a real redis-server: messages flow; while Redis is
// away publish says false and nothing hangs; when it is back the subscriptions are made again and their
// listeners told to catch up; a subscription that went silent without its socket closing (a frozen
// server) is noticed within a few seconds and made again once the server answers.
import { afterAll, describe, expect, test } from 'bun:test'
import { openRedis, redisPrefixOf } from '../../src/db/redis.ts'
import { freePort } from '../helpers/process.ts'
import { redisAvailable } from '../helpers/services.ts'

async function eventually(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await Bun.sleep(50)) if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
}

describe.skipIf(!redisAvailable)('SharedRedis', () => {
  const port = freePort()
  const spawn = () => Bun.spawn(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', ''], { stdout: 'ignore' })
  let server = spawn()
  const errors: string[] = []
  const redis = openRedis(`redis://127.0.0.1:${port}`, { prefix: 'sb:test:', retryMs: 200, onError: (what) => errors.push(what) })
  const received: string[] = []
  let resumed = 0
  redis.subscribe(
    'news',
    (message) => received.push(message),
    () => resumed++,
  )
  afterAll(async () => {
    await redis.close()
    server.kill('SIGKILL')
  })

  test('keys are named after the database', () => {
    expect(redisPrefixOf('postgres://u:p@db:5432/switchboard_eu')).toBe('sb:switchboard_eu:')
    expect(redisPrefixOf(undefined)).toBe('sb:embedded:')
  })

  test('a message published reaches the subscriber', async () => {
    await eventually('the subscription', () => redis.subscribed)
    expect(await redis.publish('news', 'one')).toBe(true)
    await eventually('the message', () => received.includes('one'))
  })

  test('Redis gone: publish answers false at once; back: subscribed again, listeners told to catch up', async () => {
    server.kill('SIGKILL')
    await server.exited
    await eventually('the loss to be seen', () => !redis.connected)
    const started = performance.now()
    expect(await redis.publish('news', 'lost')).toBe(false)
    expect(performance.now() - started).toBeLessThan(100)
    expect(errors).toContain('redis unreachable')
    server = spawn()
    await eventually('the subscription again', () => redis.subscribed && resumed === 1)
    expect(await redis.publish('news', 'two')).toBe(true)
    await eventually('the message after the return', () => received.includes('two'))
    expect(received).not.toContain('lost')
  })

  test('a frozen Redis: the silent subscription is noticed, and made again once Redis answers', async () => {
    process.kill(server.pid, 'SIGSTOP')
    try {
      await eventually('the silence to be noticed', () => !redis.subscribed, 8000)
      expect(errors).toContain('redis subscription silent')
    } finally {
      process.kill(server.pid, 'SIGCONT')
    }
    await eventually('the subscription again', () => redis.subscribed && resumed === 2)
    expect(await redis.publish('news', 'three')).toBe(true)
    await eventually('the message after the thaw', () => received.includes('three'))
  }, 20_000)
})
