// The Redis that several instances share (REDIS_URL), through Bun's built-in client: one connection for
// commands, failing fast while Redis is away (callers decide: rate limits fail open, revocations fall
// back to the database), and one for subscriptions, which are made again after every reconnection.
// Both reconnect by themselves, whether Redis was away at boot or went away later. A heartbeat sent to
// itself every second finds a subscription that died without its socket closing (a host gone, a
// network cut): silent for three beats, it counts as lost and is made again. Three beats of this
// process's own loop, not only three seconds: an instance too busy to read its socket has not heard
// a beat that may well be waiting there, so its lateness never counts against Redis.
import { RedisClient } from 'bun'

export interface SharedRedis {
  /** Before every key and channel: one Redis can serve several deployments (see redisPrefixOf). */
  readonly prefix: string
  /** True while the command connection is up. */
  readonly connected: boolean
  /** One command (`EVALSHA`, `SET`…); rejects at once while Redis is unreachable. */
  send(command: string, args: string[]): Promise<unknown>
  /** Publishes on `channel` (prefixed); false when Redis is unreachable (the caller's fallback applies). */
  publish(channel: string, message: string): Promise<boolean>
  /**
   * Calls `listener` with each message on `channel` (prefixed). `onResume` runs each time the
   * subscription is made again after a loss: messages published meanwhile were missed, so catch up.
   */
  subscribe(channel: string, listener: (message: string) => void, onResume?: () => void): void
  /** True while the subscriptions are in place (messages are being received). */
  readonly subscribed: boolean
  /**
   * Resolves true once both connections are up and subscribed, or false after `ms` (Redis away): a server
   * waits for it at start, so its first requests are counted and checked in Redis, not failed open.
   */
  ready(ms: number): Promise<boolean>
  close(): Promise<void>
}

export interface RedisOptions {
  prefix: string
  onError?(what: string, error: unknown): void
  /** How often a lost connection is tried again (ms). */
  retryMs?: number
}

/** The key prefix of a deployment: its PostgreSQL database's name (`sb:<name>:`). */
export function redisPrefixOf(databaseUrl: string | undefined): string {
  const name = databaseUrl === undefined ? 'embedded' : decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'postgres'
  return `sb:${name}:`
}

interface Subscription {
  listener(message: string): void
  onResume?(): void
}

export function openRedis(url: string, options: RedisOptions): SharedRedis {
  const { prefix } = options
  const retryMs = options.retryMs ?? 1000
  // Our own retry loop instead of the client's: the client's does not start when the first attempt fails.
  const clientOptions = { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 2000 }
  let commands = new RedisClient(url, clientOptions)
  let subscriber = new RedisClient(url, clientOptions)
  const subscriptions = new Map<string, Subscription>()
  let subscribed = false
  let everSubscribed = false
  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  // Who waits for the first time both connections are up (ready()).
  const waiting: Array<() => void> = []

  function report(what: string, error: unknown) {
    options.onError?.(what, error)
  }

  async function connectCommands(): Promise<void> {
    if (commands.connected) return
    commands.close()
    commands = new RedisClient(url, clientOptions)
    await commands.connect()
  }

  async function connectSubscriber(): Promise<void> {
    if (subscribed && subscriber.connected) return
    subscribed = false
    subscriber.close()
    subscriber = new RedisClient(url, clientOptions)
    await subscriber.connect()
    for (const [channel, subscription] of subscriptions) await subscriber.subscribe(channel, subscription.listener)
    subscribed = true
    if (everSubscribed) for (const subscription of subscriptions.values()) subscription.onResume?.()
    everSubscribed = true
    for (const wake of waiting.splice(0)) wake()
  }

  // The heartbeat: this connection's own channel, so instances never hear each other's.
  const beatChannel = `${prefix}heartbeat:${crypto.randomUUID()}`
  let lastBeatAt = Date.now()
  // Beats sent since one came back: each sent a turn of the retry loop apart, with the socket read between.
  let beatsUnanswered = 0
  const onBeat = () => {
    lastBeatAt = Date.now()
    beatsUnanswered = 0
  }
  subscriptions.set(beatChannel, { listener: onBeat })

  let lastFailure = ''
  async function keepConnected(): Promise<void> {
    timer = undefined
    if (closed) return
    try {
      if (subscribed && beatsUnanswered >= 3 && Date.now() - lastBeatAt > 3 * Math.max(retryMs, 1000)) {
        report('redis subscription silent', new Error('no heartbeat for three beats: subscribing again'))
        subscribed = false
      }
      await connectCommands()
      const resubscribing = !subscribed
      await connectSubscriber()
      if (resubscribing) {
        lastBeatAt = Date.now()
        beatsUnanswered = 0
      }
      // Not awaited: a Redis that hangs must not stop this loop.
      commands.publish(beatChannel, '1').catch(() => undefined)
      beatsUnanswered++
      lastFailure = ''
    } catch (error) {
      // Reported once per outage, not once per retry.
      const message = (error as Error).message
      if (message !== lastFailure && !closed) report('redis unreachable', error)
      lastFailure = message
    }
    if (!closed) {
      timer = setTimeout(() => void keepConnected(), retryMs)
      timer.unref?.()
    }
  }
  void keepConnected()

  return {
    prefix,
    get connected() {
      return commands.connected
    },
    get subscribed() {
      return subscribed && subscriber.connected
    },
    ready(ms) {
      if (subscribed && subscriber.connected && commands.connected) return Promise.resolve(true)
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(giveUp)
          resolve(true)
        }
        const giveUp = setTimeout(() => {
          const at = waiting.indexOf(wake)
          if (at !== -1) waiting.splice(at, 1)
          resolve(false)
        }, ms)
        waiting.push(wake)
      })
    },
    send(command, args) {
      return commands.send(command, args)
    },
    async publish(channel, message) {
      try {
        await commands.publish(prefix + channel, message)
        return true
      } catch (error) {
        if (commands.connected) report('redis publish failed', error)
        return false
      }
    },
    subscribe(channel, listener, onResume) {
      const subscription: Subscription = { listener: (message: string) => listener(message), onResume }
      subscriptions.set(prefix + channel, subscription)
      if (subscribed && subscriber.connected)
        subscriber.subscribe(prefix + channel, subscription.listener).catch((error) => {
          // The retry loop subscribes again once the connection is back.
          subscribed = false
          report('redis subscribe failed', error)
        })
    },
    async close() {
      closed = true
      clearTimeout(timer)
      commands.close()
      subscriber.close()
    },
  }
}
