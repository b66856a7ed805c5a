// The PostgreSQL engine's change mark (Database.changeMark): a number that moves whenever the users,
// organizations, plans, API keys or MFA factors may have changed since they were read, so that a
// per-process cache of authentication's per-request reads (marked-cache.ts) stays exact on every
// instance. Triggers (migration 0025) NOTIFY the channel below on any change to those tables, which
// this instance LISTENs to: another instance's or process's change moves it once heard. This
// instance's own change moves it at once: its commit batch reads a setting the triggers set, so only
// transactions that fired one move it (the writes of tickets and the rest leave the memory alone).
//
// NOTIFY is not a queue: what is committed while the listening connection is down is never heard. So
// memory is trusted only while this instance's own heartbeat, sent on the channel every BEAT_MS, came
// back less than TRUST_MS after it was sent; the server delivers notifications in commit order, so a
// beat heard means every commit before it was heard too. Otherwise the mark is undefined and the cache
// reads every time (slower, never wrong). Trust regained after a lapse starts the entries again.
import { randomUUID } from 'node:crypto'

export const AUTH_STATE_CHANNEL = 'switchboard_auth_state'
/** Read in a transaction's commit batch: 'on' when one of the triggers fired in it. */
export const AUTH_STATE_CHANGED = "SELECT current_setting('switchboard.auth_state_changed', true) AS changed"
/** A statement outside a transaction that names one of the tables the triggers watch (its notification comes later). */
const WATCHED = /\b(users|organizations|plans|api_keys|mfa_factors)\b/i
const BEAT_MS = 500
const TRUST_MS = 2_000

/** What the mark needs of Bun.SQL: its LISTEN, and a statement to send a notification. */
export interface Notifications {
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<{ unlisten(): Promise<void> }>
  unsafe(text: string, params: unknown[]): PromiseLike<unknown>
}

export class PostgresChangeMark {
  private epoch = 0
  /** When the last beat heard back was sent (performance.now()): trust runs TRUST_MS from there. */
  private beatSentAt = Number.NEGATIVE_INFINITY
  private readonly instance = randomUUID()
  private readonly sent = new Map<number, number>()
  private seq = 0
  private started = false
  private closed = false
  private timer: ReturnType<typeof setInterval> | undefined
  private subscription: Promise<{ unlisten(): Promise<void> } | undefined> | undefined

  constructor(private readonly sql: Notifications) {}

  /** The current mark, or undefined while memory cannot be trusted; starts listening at the first call. */
  current(): number | undefined {
    if (!this.started) this.start()
    return performance.now() - this.beatSentAt <= TRUST_MS ? this.epoch : undefined
  }

  /**
   * Called after a commit of this instance that changed what the triggers watch (or may have: a failed
   * COMMIT): its own changes are seen at once, not a notification later.
   */
  wrote(): void {
    this.epoch++
  }

  /** Called after a statement outside a transaction: moves the mark when it names a watched table. */
  ran(text: string): void {
    if (WATCHED.test(text)) this.epoch++
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.timer)
    // Not waited for long: a LISTEN still trying to connect (the server away) must not hold the shutdown.
    const unlistened = this.subscription?.then((subscription) => subscription?.unlisten()).catch(() => undefined)
    await Promise.race([unlistened, Bun.sleep(1000)])
  }

  private start(): void {
    this.started = true
    this.subscription = this.sql
      .listen(
        AUTH_STATE_CHANNEL,
        (payload) => this.heard(payload),
        // Subscribed (again, after a lost connection: what was committed meanwhile was never heard);
        // a beat at once, so that trust need not wait for the next one.
        () => {
          this.epoch++
          this.beat()
        },
      )
      .catch(() => undefined)
    this.timer = setInterval(() => this.beat(), BEAT_MS)
    this.timer.unref?.()
  }

  private beat(): void {
    if (this.closed) return
    const seq = ++this.seq
    this.sent.set(seq, performance.now())
    // Beats never heard back (a lost connection) are forgotten after a while.
    if (this.sent.size > 64) this.sent.delete(this.sent.keys().next().value!)
    Promise.resolve(this.sql.unsafe('SELECT pg_notify($1, $2)', [AUTH_STATE_CHANNEL, `beat ${this.instance} ${seq}`])).then(
      undefined,
      () => undefined,
    )
  }

  private heard(payload: string): void {
    if (!payload.startsWith('beat ')) {
      this.epoch++
      return
    }
    const [, instance, seq] = payload.split(' ')
    if (instance !== this.instance) return
    const sentAt = this.sent.get(Number(seq))
    if (sentAt === undefined) return
    this.sent.delete(Number(seq))
    // After a lapse, entries kept before it may have missed a commit: start them again.
    if (sentAt - this.beatSentAt > TRUST_MS) this.epoch++
    if (sentAt > this.beatSentAt) this.beatSentAt = sentAt
  }
}
