// Revocations shared by several instances through Redis: each one remembered here is published on the
// `revocations` channel (batched per turn of the microtask queue) and applied by every instance. Memory
// is trusted only while the subscription is known to be in place and a reload from the database has
// followed its start; otherwise the per-request check asks the database (fail closed: slower, never
// wrong). A lost subscription is caught up by a reload when it is made again.
import { randomUUID } from 'node:crypto'
import type { Queries } from '../../db/database.ts'
import type { SharedRedis } from '../../db/redis.ts'
import type { Logger } from '../../lib/log.ts'
import { revokedInDatabase } from './store.ts'

const CHANNEL = 'revocations'
/** Publications kept for a later try while Redis is away (the others reload from the database anyway). */
const MAX_UNSENT = 10_000
/** How long a sync message may take to come back before another is sent. */
const SYNC_TIMEOUT_MS = 1000

type Entries = Array<[string, number]>

/** `t`: revoked tokens, `s`: ended sessions, each [id, until (ms)]; `sync`: an instance checking its subscription. */
interface Message {
  t?: Entries
  s?: Entries
  sync?: string
}

export interface RevocationSink {
  apply(tokens: Entries, sessions: Entries): void
  /** Loads every live revocation from the database into memory. */
  reload(): Promise<void>
  db: Queries
  log: Logger
}

export class SharedRevocations {
  /** Memory holds every revocation: a reload completed while subscribed, and no loss since. */
  private trusted = false
  private everTrusted = false
  private degraded = false
  /** Counts losses of the subscription: a reload that started before the last one proves nothing. */
  private epoch = 0
  /** The sync message in flight: once it comes back, the subscription is known to be in place. */
  private nonce: string | undefined
  private outbox: Message = {}
  private flushing = false
  private readonly unsent: string[] = []

  constructor(
    private readonly redis: SharedRedis,
    private readonly sink: RevocationSink,
  ) {
    redis.subscribe(
      CHANNEL,
      (message) => this.receive(message),
      () => this.resumed(),
    )
    this.sync()
  }

  /** True while memory can answer alone; else starts what brings it back in step. */
  current(): boolean {
    if (this.trusted && this.redis.subscribed) return true
    if (!this.redis.subscribed) {
      if (this.trusted) this.epoch++
      this.trusted = false
      if (!this.degraded && (this.everTrusted || !this.redis.connected)) {
        this.degraded = true
        this.sink.log.warn(
          'revocation checks read the database: the Redis subscription is down, revocations of other instances may be missed',
        )
      }
    } else this.sync()
    return false
  }

  /** The database's answer (one lookup by primary key in each table). */
  recorded(jti: string, sessionId: string): Promise<boolean> {
    return revokedInDatabase(this.sink.db, jti, sessionId)
  }

  publish(kind: 't' | 's', id: string, until: number): void {
    const entries = (this.outbox[kind] ??= [])
    entries.push([id, until])
    if (this.flushing) return
    this.flushing = true
    queueMicrotask(() => {
      this.flushing = false
      const message = JSON.stringify(this.outbox)
      this.outbox = {}
      this.send(message)
    })
  }

  private send(message: string): void {
    void this.redis.publish(CHANNEL, message).then((sent) => {
      if (sent) return
      this.unsent.push(message)
      if (this.unsent.length > MAX_UNSENT) this.unsent.shift()
    })
  }

  /** Sends a message to ourselves through Redis; its return proves the subscription, then a reload catches up. */
  private sync(): void {
    if (this.nonce !== undefined || !this.redis.subscribed) return
    const nonce = randomUUID()
    this.nonce = nonce
    const giveUp = () => {
      if (this.nonce === nonce) this.nonce = undefined
    }
    void this.redis.publish(CHANNEL, JSON.stringify({ sync: nonce })).then((sent) => sent || giveUp())
    setTimeout(giveUp, SYNC_TIMEOUT_MS).unref?.()
  }

  private receive(text: string): void {
    let message: Message
    try {
      message = JSON.parse(text) as Message
    } catch {
      return
    }
    if (typeof message.sync === 'string') {
      if (message.sync !== this.nonce) return
      // Kept set until the reload ends: requests meanwhile do not start another sync.
      void this.reload().finally(() => {
        if (this.nonce === message.sync) this.nonce = undefined
      })
      return
    }
    this.sink.apply(entries(message.t), entries(message.s))
  }

  /** The subscription was made again after a loss: what was published meanwhile is in the database. */
  private resumed(): void {
    this.epoch++
    this.trusted = false
    for (const message of this.unsent.splice(0)) this.send(message)
    void this.reload()
  }

  private async reload(): Promise<void> {
    const epoch = this.epoch
    try {
      await this.sink.reload()
    } catch (error) {
      this.sink.log.error('revocations not reloaded from the database', { error })
      return
    }
    if (epoch !== this.epoch || !this.redis.subscribed) return
    this.trusted = true
    this.everTrusted = true
    if (this.degraded) this.sink.log.info('revocation checks are in memory again: the Redis subscription is back')
    this.degraded = false
  }
}

/** Well-formed [id, until] pairs of a message from another instance. */
function entries(value: unknown): Entries {
  if (!Array.isArray(value)) return []
  return value.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number')
}
