// The streamSlots port: how many event streams each user holds open. In this process's memory for one
// instance; in Redis for several, one sorted set per user (members the streams, scores their leases'
// ends), taken and trimmed by one script, so a user's limit holds across the instances. Redis being
// away fails open (as rate limits do): a stream is not refused for want of a count.
import type { SharedRedis } from '../../db/redis.ts'
import type { Logger } from '../../lib/log.ts'
import type { StreamSlots } from '../../ports.ts'

export function memoryStreamSlots(): StreamSlots {
  const byUser = new Map<string, Map<string, number>>()
  return {
    async acquire(userId, streamId, max, now, expiresAt) {
      const held = byUser.get(userId) ?? new Map<string, number>()
      for (const [id, until] of held) if (until <= now) held.delete(id)
      if (held.size >= max) return false
      held.set(streamId, expiresAt)
      byUser.set(userId, held)
      return true
    },
    async renew(userId, streamId, expiresAt) {
      const held = byUser.get(userId)
      if (held?.has(streamId)) held.set(streamId, expiresAt)
    },
    async release(userId, streamId) {
      const held = byUser.get(userId)
      held?.delete(streamId)
      if (held?.size === 0) byUser.delete(userId)
    },
  }
}

// KEYS[1] the user's set; ARGV: stream id, max, now, lease end. Drops lapsed leases, then takes one if
// there is room; the key lives as long as its last lease (Redis's clock: a day's margin, only a backstop).
const ACQUIRE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`

export function redisStreamSlots(redis: SharedRedis, log: Logger): StreamSlots {
  const key = (userId: string) => `${redis.prefix}streams:${userId}`
  // At most one warning a minute while Redis stays away (every stream open and heartbeat would say it).
  let warnedAt = Number.NEGATIVE_INFINITY
  const unreachable = (what: string) => (error: unknown) => {
    if (Date.now() - warnedAt < 60_000) return
    warnedAt = Date.now()
    log.warn(`event stream slots: redis unreachable (${what})`, { error: error instanceof Error ? error.message : String(error) })
  }
  return {
    async acquire(userId, streamId, max, now, expiresAt) {
      try {
        const taken = await redis.send('EVAL', [ACQUIRE_SCRIPT, '1', key(userId), streamId, String(max), String(now), String(expiresAt)])
        return Number(taken) === 1
      } catch (error) {
        unreachable('not counted')(error)
        return true
      }
    },
    async renew(userId, streamId, expiresAt) {
      // XX: only a slot still held (one released or lapsed is not taken back this way).
      await redis.send('ZADD', [key(userId), 'XX', String(expiresAt), streamId]).catch(unreachable('not renewed'))
    },
    async release(userId, streamId) {
      await redis.send('ZREM', [key(userId), streamId]).catch(unreachable('not released'))
    },
  }
}
