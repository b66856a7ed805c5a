// The streamSlots port, in memory and in Redis alike: at most `max` unexpired slots per user, a release
// or a lapsed lease frees one, a renewal keeps one, and users do not share.
import { afterAll, describe, expect, test } from 'bun:test'
import { openRedis, type SharedRedis } from '../../../src/db/redis.ts'
import { memoryStreamSlots, redisStreamSlots } from '../../../src/modules/event-stream/index.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import type { StreamSlots } from '../../../src/ports.ts'
import { redisServer } from '../../helpers/engine.ts'
import { freePort } from '../../helpers/process.ts'
import { redisAvailable } from '../../helpers/services.ts'
import { until } from '../../helpers/wait.ts'

let redis: SharedRedis | undefined
afterAll(async () => {
  await redis?.close()
})

const kinds: Array<[string, () => Promise<StreamSlots>]> = [['memory', async () => memoryStreamSlots()]]
if (redisAvailable)
  kinds.push([
    'redis',
    async () => {
      redis ??= openRedis((await redisServer()).url, { prefix: `sb:slots${Bun.nanoseconds()}:` })
      const connected = redis
      // Unconnected, the port fails open (every slot granted): the test would prove nothing.
      await until(() => connected.connected, 'the connection to Redis')
      return redisStreamSlots(redis, createLogger({ level: 'error', sink: memorySink() }))
    },
  ])

describe.each(kinds)('%s', (_kind, make) => {
  const T = 1_000_000

  test('at most max per user; a release frees one; another user has their own', async () => {
    const slots = await make()
    const user = `usr_${Bun.nanoseconds()}`
    for (const id of ['s1', 's2', 's3']) expect(await slots.acquire(user, id, 3, T, T + 1000)).toBe(true)
    expect(await slots.acquire(user, 's4', 3, T, T + 1000)).toBe(false)
    expect(await slots.acquire(`${user}_other`, 's1', 3, T, T + 1000)).toBe(true)
    await slots.release(user, 's2')
    expect(await slots.acquire(user, 's4', 3, T, T + 1000)).toBe(true)
    expect(await slots.acquire(user, 's5', 3, T, T + 1000)).toBe(false)
  })

  test('a lapsed lease frees its slot (an instance that died); a renewed one stays held', async () => {
    const slots = await make()
    const user = `usr_${Bun.nanoseconds()}`
    expect(await slots.acquire(user, 'kept', 2, T, T + 1000)).toBe(true)
    expect(await slots.acquire(user, 'lapsed', 2, T, T + 1000)).toBe(true)
    expect(await slots.acquire(user, 'new', 2, T + 500, T + 1500)).toBe(false)
    await slots.renew(user, 'kept', T + 5000)
    // At T + 1000 'lapsed' has ended: one slot free, then none ('kept' still held).
    expect(await slots.acquire(user, 'new', 2, T + 1000, T + 2000)).toBe(true)
    expect(await slots.acquire(user, 'third', 2, T + 1000, T + 2000)).toBe(false)
    // A renewal does not take back a slot that was released.
    await slots.release(user, 'new')
    await slots.renew(user, 'new', T + 5000)
    expect(await slots.acquire(user, 'third', 2, T + 1000, T + 2000)).toBe(true)
  })
})

describe.skipIf(!redisAvailable)('redis unreachable', () => {
  test('fails open: a stream is not refused for want of a count; one warning, not one per call', async () => {
    const sink = memorySink()
    const nowhere = openRedis(`redis://127.0.0.1:${freePort()}`, { prefix: 'sb:slots-nowhere:' })
    try {
      const slots = redisStreamSlots(nowhere, createLogger({ level: 'warn', sink }))
      for (let i = 0; i < 4; i++) expect(await slots.acquire('usr_x', `s${i}`, 1, 1000, 2000)).toBe(true)
      await slots.renew('usr_x', 's0', 3000)
      await slots.release('usr_x', 's0')
      expect(sink.records().map((r) => r.msg)).toEqual(['event stream slots: redis unreachable (not counted)'])
    } finally {
      await nowhere.close()
    }
  })
})
