// This instance among its peers: the cron leadership (a PostgreSQL advisory lock, released by the
// server the moment a leader's connection ends) and the cron statuses the leader shares through Redis,
// so that /health on any instance says which instance ran each task last. One process alone (no
// REDIS_URL) leads always and shares nothing.
import { AdvisoryLock, LOCKS } from '../db/advisory-lock.ts'
import type { SharedRedis } from '../db/redis.ts'
import type { ClusterView } from '../ports.ts'
import type { Leadership, TaskStatus } from './scheduler.ts'

/** How long a shared status is kept after its last update (a cluster that lost its leader shows it aged). */
const STATUS_TTL_S = 7 * 24 * 3600

export interface Cluster {
  view: ClusterView
  /** Undefined for one process alone: it runs every task. */
  leadership: Leadership | undefined
  close(): Promise<void>
}

export function openCluster(options: { instanceId: string; databaseUrl?: string; redis?: SharedRedis }): Cluster {
  const { instanceId, redis } = options
  const key = redis ? `${redis.prefix}cron` : ''
  const view: ClusterView = {
    instanceId,
    redisState: () => (redis === undefined ? 'none' : redis.connected ? 'ok' : 'unreachable'),
    async sharedCronStatus() {
      if (!redis?.connected) return undefined
      try {
        const fields = (await redis.send('HGETALL', [key])) as Record<string, string> | null
        if (!fields) return undefined
        return Object.fromEntries(Object.entries(fields).map(([name, json]) => [name, JSON.parse(json) as TaskStatus]))
      } catch {
        return undefined
      }
    },
  }
  if (!redis || options.databaseUrl === undefined) return { view, leadership: undefined, close: async () => {} }
  const lock = new AdvisoryLock(options.databaseUrl, LOCKS.cronLeader)
  const leadership: Leadership = {
    lead: () => lock.take(),
    ran(name, status) {
      // Best effort: a status lost while Redis is away is replaced by the next run's.
      redis
        .send('HSET', [key, name, JSON.stringify(status)])
        .then(() => redis.send('EXPIRE', [key, String(STATUS_TTL_S)]))
        .catch(() => undefined)
    },
  }
  return { view, leadership, close: () => lock.release() }
}
