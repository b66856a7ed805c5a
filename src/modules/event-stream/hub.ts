// This instance's open event streams, by organization: the "events written" signals (Wakeups port, from
// this process or through Redis from the others) wake the streams of that organization; a poll every few
// seconds (EVENT_STREAM_POLL) wakes those behind the log's end, so a lost signal costs latency, never an event. Each stream
// holds one of its user's MAX_STREAMS_PER_USER slots (the streamSlots port: counted on every instance).
// Subscribed to the signals and polling only while a stream is open.
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { latestSeq } from './store.ts'

export const MAX_STREAMS_PER_USER = 5

export interface StreamHandle {
  readonly organizationId: string
  readonly userId: string
  /** The last seq the stream has read. */
  lastSeq(): number
  /** There may be events after lastSeq(): read them. */
  wake(): void
  /** Ends the stream (the server is shutting down). */
  end(): void
}

export interface OpenStream {
  release(): void
  /** Extends the stream's slot (each heartbeat). */
  renew(until: number): void
}

export class StreamHub {
  private readonly byOrganization = new Map<string, Set<StreamHandle>>()
  private readonly perUser = new Map<string, number>()
  private unsubscribe: (() => void) | undefined
  private timer: ReturnType<typeof setInterval> | undefined
  private polling = false

  constructor(
    private readonly app: Pick<AppContext, 'db' | 'ports' | 'log'>,
    private readonly pollMs: number,
  ) {}

  /**
   * Registers a stream, with one of its user's slots leased until `leaseUntil`; 409 LIMIT_REACHED when the
   * user holds MAX_STREAMS_PER_USER on all instances together. Returns the release and the lease's renewal.
   */
  async open(handle: StreamHandle, lease: { now: number; until: number }): Promise<OpenStream> {
    const slots = this.app.ports.streamSlots
    const slot = crypto.randomUUID()
    if (!(await slots.acquire(handle.userId, slot, MAX_STREAMS_PER_USER, lease.now, lease.until)))
      throw new AppError(
        'LIMIT_REACHED',
        `At most ${MAX_STREAMS_PER_USER} event streams per user at once: close one (or share one stream between tabs) first`,
      )
    const count = this.perUser.get(handle.userId) ?? 0
    this.perUser.set(handle.userId, count + 1)
    let streams = this.byOrganization.get(handle.organizationId)
    if (!streams) this.byOrganization.set(handle.organizationId, (streams = new Set()))
    streams.add(handle)
    this.start()
    let released = false
    const release = () => {
      if (released) return
      released = true
      void slots.release(handle.userId, slot)
      const left = (this.perUser.get(handle.userId) ?? 1) - 1
      if (left > 0) this.perUser.set(handle.userId, left)
      else this.perUser.delete(handle.userId)
      streams.delete(handle)
      if (streams.size === 0 && this.byOrganization.get(handle.organizationId) === streams)
        this.byOrganization.delete(handle.organizationId)
      if (this.byOrganization.size === 0) this.stop()
    }
    return { release, renew: (until) => void (released ? undefined : slots.renew(handle.userId, slot, until)) }
  }

  /**
   * Ends every open stream (their clients reconnect elsewhere with Last-Event-ID): for a shutdown, before
   * the server waits for in-flight requests, which an open stream otherwise is until the drain timeout.
   */
  closeAll(): void {
    for (const streams of [...this.byOrganization.values()]) for (const stream of [...streams]) stream.end()
  }

  /** What is open and whether the hub listens (tests check nothing leaks). */
  stats(): { streams: number; users: number; organizations: number; listening: boolean } {
    let streams = 0
    for (const set of this.byOrganization.values()) streams += set.size
    return { streams, users: this.perUser.size, organizations: this.byOrganization.size, listening: this.unsubscribe !== undefined }
  }

  private start(): void {
    if (this.unsubscribe) return
    this.unsubscribe = this.app.ports.wakeups.onEventsWritten((organizationId) => this.signal(organizationId))
    this.timer = setInterval(() => void this.poll(), this.pollMs)
    this.timer.unref?.()
  }

  private stop(): void {
    this.unsubscribe?.()
    this.unsubscribe = undefined
    clearInterval(this.timer)
    this.timer = undefined
  }

  private signal(organizationId: string | null): void {
    if (organizationId === null) {
      for (const streams of this.byOrganization.values()) for (const stream of streams) stream.wake()
      return
    }
    for (const stream of this.byOrganization.get(organizationId) ?? []) stream.wake()
  }

  /** One read per organization with open streams: those behind the log's end are woken. */
  private async poll(): Promise<void> {
    if (this.polling) return
    this.polling = true
    try {
      for (const [organizationId, streams] of [...this.byOrganization]) {
        const latest = await latestSeq(this.app.db, organizationId)
        for (const stream of streams) if (stream.lastSeq() < latest) stream.wake()
      }
    } catch (error) {
      this.app.log.warn('event stream poll failed', { error: (error as Error).message })
    } finally {
      this.polling = false
    }
  }
}

// By the ports: a request's Ctx is a copy of the app context, its ports the same object.
const hubs = new WeakMap<AppContext['ports'], StreamHub>()

/** The hub of `app` (one per app context: every request of it, and the tests, see the same). */
export function hubOf(app: Pick<AppContext, 'db' | 'ports' | 'log' | 'config'>): StreamHub {
  let hub = hubs.get(app.ports)
  if (!hub) hubs.set(app.ports, (hub = new StreamHub(app, app.config.eventStreamPollMs)))
  return hub
}
