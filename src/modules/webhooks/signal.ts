// The implementations of the Wakeups port (ports.ts): "deliveries were queued" reaches the dispatchers
// of this process, once per turn of the microtask queue however many commits queued some, and "events
// were written for organization X" its open event streams (once per organization and turn); with several
// instances, also every other instance's, through Redis (redisWakeups). A wake-up lost while Redis is
// away costs only latency: every dispatcher also looks for due rows on its cron tick, every event
// stream polls the event log every few seconds.
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

  private readonly eventListeners = new Set<(organizationId: string | null) => void>()
  /** Organizations with events written since the last call of the listeners; null: every one. */
  private readonly written = new Set<string | null>()

  /** Calls `listener` with the organization after every commit that wrote events of it; returns the unsubscribe. */
  onEventsWritten(listener: (organizationId: string | null) => void): () => void {
    const call = (organizationId: string | null) => listener(organizationId)
    this.eventListeners.add(call)
    return () => {
      this.eventListeners.delete(call)
    }
  }

  eventsWritten(organizationId: string): void {
    this.signalEvents(organizationId)
  }

  /** `null`: signals may have been missed, every organization's streams look (see RedisWakeups). */
  signalEvents(organizationId: string | null): void {
    const first = this.written.size === 0
    this.written.add(organizationId)
    if (!first) return
    queueMicrotask(() => {
      const organizations = [...this.written]
      this.written.clear()
      for (const listener of this.eventListeners) for (const organizationId of organizations) listener(organizationId)
    })
  }
}

const CHANNEL = 'deliveries'
/** "events written": the origin, then one organization id a line. */
const EVENTS_CHANNEL = 'events'

/** Wakes this process's dispatchers and event streams and, through Redis, those of every other instance. */
export class RedisWakeups implements Wakeups {
  private readonly local = new InProcessWakeups()
  /** What this instance publishes: its own messages come back to it, and are ignored. */
  private readonly origin = randomUUID()
  private publishing = false
  private again = false
  /** Organizations whose "events written" is not published yet, and whether a publication is in flight. */
  private readonly unpublished = new Set<string>()
  private publishingEvents = false

  constructor(private readonly redis: SharedRedis) {
    redis.subscribe(
      CHANNEL,
      (message) => {
        if (message !== this.origin) this.local.deliveriesQueued()
      },
      // Wake-ups published while the subscription was down were missed: look now.
      () => this.local.deliveriesQueued(),
    )
    redis.subscribe(
      EVENTS_CHANNEL,
      (message) => {
        const [origin, ...organizations] = message.split('\n')
        if (origin !== this.origin) for (const organizationId of organizations) this.local.signalEvents(organizationId)
      },
      () => this.local.signalEvents(null),
    )
  }

  onEventsWritten(listener: (organizationId: string | null) => void): () => void {
    return this.local.onEventsWritten(listener)
  }

  eventsWritten(organizationId: string): void {
    this.local.eventsWritten(organizationId)
    this.unpublished.add(organizationId)
    this.publishEvents()
  }

  /** One publication per turn of the microtask queue, at most one in flight; what comes meanwhile goes in the next. */
  private publishEvents(): void {
    if (this.publishingEvents) return
    this.publishingEvents = true
    queueMicrotask(() => {
      const organizations = [...this.unpublished]
      this.unpublished.clear()
      void this.redis.publish(EVENTS_CHANNEL, [this.origin, ...organizations].join('\n')).finally(() => {
        this.publishingEvents = false
        if (this.unpublished.size > 0) this.publishEvents()
      })
    })
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
