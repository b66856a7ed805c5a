// The implementations of the Wakeups port (ports.ts): "deliveries were queued" reaches the dispatchers
// of this process, once per turn of the microtask queue however many commits queued some; with several
// instances, also every other instance's, through Redis (redisWakeups). A wake-up lost while Redis is
// away costs only latency: every dispatcher also looks for due rows on its cron tick.
import { randomUUID } from 'node:crypto'
import type { SharedRedis } from '../../db/redis.ts'
import type { Wakeups } from '../../ports.ts'

export class InProcessWakeups implements Wakeups {
  private readonly listeners = new Set<() => void>()
  private scheduled = false

  /** Calls `listener` after every transaction that queued deliveries; returns the unsubscribe. */
  onDeliveriesQueued(listener: () => void): () => void {
    // A listener of its own per subscription: the same function subscribed twice is two subscriptions.
    const call = () => listener()
    this.listeners.add(call)
    return () => {
      this.listeners.delete(call)
    }
  }

  deliveriesQueued(): void {
    if (this.scheduled) return
    this.scheduled = true
    queueMicrotask(() => {
      this.scheduled = false
      for (const listener of this.listeners) listener()
    })
  }
}

const CHANNEL = 'deliveries'

/** Wakes this process's dispatchers and, through Redis, those of every other instance. */
export class RedisWakeups implements Wakeups {
  private readonly local = new InProcessWakeups()
  /** What this instance publishes: its own messages come back to it, and are ignored. */
  private readonly origin = randomUUID()
  private publishing = false
  private again = false

  constructor(private readonly redis: SharedRedis) {
    redis.subscribe(
      CHANNEL,
      (message) => {
        if (message !== this.origin) this.local.deliveriesQueued()
      },
      // Wake-ups published while the subscription was down were missed: look now.
      () => this.local.deliveriesQueued(),
    )
  }

  onDeliveriesQueued(listener: () => void): () => void {
    return this.local.onDeliveriesQueued(listener)
  }

  deliveriesQueued(): void {
    this.local.deliveriesQueued()
    this.publish()
  }

  /**
   * One publication per turn of the microtask queue, and at most one in flight: commits that queue
   * deliveries meanwhile are covered by the one that follows it (the others claim all that is due).
   */
  private publish(): void {
    if (this.publishing) {
      this.again = true
      return
    }
    this.publishing = true
    queueMicrotask(() => {
      void this.redis.publish(CHANNEL, this.origin).finally(() => {
        this.publishing = false
        if (!this.again) return
        this.again = false
        this.publish()
      })
    })
  }
}

/** The wake-ups of an instance that shares its database with others through `redis`. */
export function redisWakeups(redis: SharedRedis): Wakeups {
  return new RedisWakeups(redis)
}
