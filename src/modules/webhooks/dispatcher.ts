// The dispatcher: claims due deliveries with a lease (see claim-due.ts), sends each outside any
// transaction, and records the outcome in a short one. Woken after every transaction that queued
// deliveries (attempt 1 goes at once) and by the cron loop (retries, and anything a crash left:
// a claim whose lease ran out is due again, so a delivery is sent at least once, maybe twice).
// WEBHOOK_CONCURRENCY caps sends in flight, WEBHOOK_CONCURRENCY_PER_WEBHOOK (4) those to one webhook;
// first attempts are claimed before retries.
//
// Claims run ahead of the sends: up to CLAIM_AHEAD times the caps, and the ones not yet started wait
// in a ready queue, so a send that ends starts the next at once. One transaction (a "tick") does all
// the bookkeeping for many sends: it records the outcomes of those that ended and tops the queue up;
// it runs at once when a webhook's queue runs dry, otherwise within TICK_DELAY_MS, batching the rest.
import type { Database } from 'bun:sqlite'
import type { Config } from '../../config.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import type { Clock } from '../../lib/clock.ts'
import { cachingResolver } from '../../lib/dns-cache.ts'
import type { Logger } from '../../lib/log.ts'
import { allowedCidrsFromColumn } from './allowed-cidrs.ts'
import { claimDue, type DueDelivery } from './claim-due.ts'
import { findDeliveryTarget, type DeliveryTarget } from './delivery-target.ts'
import { EventBodies } from './event-bodies.ts'
import { claimLeaseUntil } from './queue-delivery.ts'
import { recordOutcome, type ClaimedDelivery, type OutcomeResult } from './record-outcome.ts'
import { OpenedSecrets } from './secret.ts'
import { resolveAll, sendAttempt, type AttemptOutcome, type AttemptOptions } from './send-attempt.ts'
import { ReadyQueue, type ReadyJob } from './ready-queue.ts'
import { onDeliveriesQueued } from './signal.ts'

export const SHUTDOWN_GRACE_MS = 10_000
/** How many times the caps are claimed (in flight plus ready). */
const CLAIM_AHEAD = 3
/** How long the outcomes of finished sends may wait to be written, while every webhook has more ready. */
const TICK_DELAY_MS = 1
/** Outcomes that make a tick run at once even so. */
const TICK_BATCH = 64
/**
 * How long a receiver's addresses are reused (Bun's own DNS cache keeps 30 s too). Each send still
 * checks them and connects to the one it checked, so reuse cannot let a name be re-pointed past the check.
 */
const DNS_TTL_MS = 30_000

export interface DispatcherDeps {
  sqlite: Database
  db: AppDatabase
  clock: Clock
  log: Logger
  config: Config
  masterKey: Uint8Array
  version: string
}

// INDEXED BY in both: rows by primary key, whatever statistics taken on a tiny table would prefer.
export const SKIP = `UPDATE webhook_deliveries INDEXED BY sqlite_autoindex_webhook_deliveries_1 SET status = 'skipped', lease_until = NULL, next_attempt_at = NULL
  WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending'`
export const RELEASE = 'UPDATE webhook_deliveries INDEXED BY sqlite_autoindex_webhook_deliveries_1 SET lease_until = NULL WHERE id IN (SELECT value FROM json_each(?))'

/** Records claimed deliveries of a disabled webhook as skipped: not sent, kept for POST /webhooks/{id}/recover. */
function skipDeliveries(sqlite: Database, ids: readonly string[]): void {
  if (ids.length > 0) sqlite.query(SKIP).run(JSON.stringify(ids))
}

/** Gives claims back unsent: due again at once, for whoever claims next (the next start). */
function releaseClaims(sqlite: Database, ids: readonly string[]): void {
  if (ids.length > 0) sqlite.query(RELEASE).run(JSON.stringify(ids))
}

const idsOf = (jobs: readonly ReadyJob[]) => jobs.map((job) => job.delivery.id)

interface Finished {
  delivery: ClaimedDelivery
  outcome: AttemptOutcome
  resolve(result: OutcomeResult): void
  reject(error: unknown): void
}

export class WebhookDispatcher {
  /** Every started delivery not yet recorded (what stop() and settled() wait for). */
  private readonly inFlight = new Map<string, Promise<unknown>>()
  private readonly ready = new ReadyQueue()
  /** Slots: sends started and not yet answered, in all and per webhook. */
  private sending = 0
  private readonly sendingTo = new Map<string, number>()
  private readonly finished: Finished[] = []
  /** Ready jobs of a webhook that answered 410 Gone: recorded as skipped in the next tick. */
  private readonly gone: ReadyJob[] = []
  private readonly secrets: OpenedSecrets
  private readonly bodies = new EventBodies()
  private readonly abort = new AbortController()
  private readonly userAgent: string
  private readonly attemptOptions: Pick<AttemptOptions, 'extraCa' | 'resolve'>
  private unsubscribe: (() => void) | undefined
  private stopped = false
  private ticking = false
  private tickScheduled = false
  private tickTimer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly deps: DispatcherDeps,
    options: Pick<AttemptOptions, 'extraCa' | 'resolve'> = {},
  ) {
    this.userAgent = `Switchboard-Webhooks/${deps.version}`
    this.secrets = new OpenedSecrets(deps.masterKey)
    this.attemptOptions = { ...options, resolve: cachingResolver(options.resolve ?? resolveAll, DNS_TTL_MS) }
  }

  /** Listens for queued deliveries and sends what is due now. */
  start(): this {
    // Woken once per turn of the event loop, however many transactions queued deliveries in it.
    this.unsubscribe = onDeliveriesQueued(() => this.scheduleTick())
    this.pump()
    return this
  }

  /** Deliveries claimed by this dispatcher and not yet recorded: sending, or ready to. */
  get inFlightCount(): number {
    return this.inFlight.size + this.ready.size
  }

  /** Resolves once nothing is in flight or ready (sends started meanwhile included). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.ready.size > 0 || this.tickScheduled || this.tickTimer !== undefined) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()])
      else await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /** Records finished sends, claims due deliveries as far as the caps allow and starts them; returns how many it claimed. */
  pump(): number {
    // Nothing a tick calls runs a tick synchronously; the guard keeps it so.
    if (this.ticking) return 0
    this.ticking = true
    try {
      return this.tick()
    } finally {
      this.ticking = false
    }
  }

  /** A tick in this turn of the event loop, or (`soon`) within TICK_DELAY_MS. */
  private scheduleTick(soon = false): void {
    if (this.tickScheduled) return
    if (soon) {
      this.tickTimer ??= setTimeout(() => {
        this.tickTimer = undefined
        this.pump()
      }, TICK_DELAY_MS)
      return
    }
    this.tickScheduled = true
    setImmediate(() => {
      this.tickScheduled = false
      this.pump()
    })
  }

  private tick(): number {
    if (this.tickTimer !== undefined) {
      clearTimeout(this.tickTimer)
      this.tickTimer = undefined
    }
    const finished = this.finished.splice(0)
    const { config, db, sqlite } = this.deps
    const free = this.stopped ? 0 : CLAIM_AHEAD * config.webhooks.concurrency - this.sending - this.ready.size
    if (finished.length === 0 && free <= 0 && this.gone.length === 0) return 0
    const now = this.deps.clock.now()
    const leaseUntil = this.leaseFrom(now)
    let results: OutcomeResult[]
    let claimed: DueDelivery[] = []
    try {
      results = write(db, (tx) => {
        skipDeliveries(sqlite, idsOf(this.gone.splice(0)))
        const succeeded = new Set<string>()
        const recorded = finished.map((f) => recordOutcome(tx, sqlite, f.delivery, f.outcome, config.webhooks.retryScheduleMs, now, succeeded))
        recorded.forEach((result, i) => {
          // Disabled now (all attempts failed, or 410 Gone): what it has ready is not sent, but kept for recovery.
          if (result.disabled) skipDeliveries(sqlite, idsOf(this.ready.takeFor(finished[i]!.delivery.webhook_id)))
        })
        if (free > 0) {
          const freeFor = (webhookId: string) => CLAIM_AHEAD * config.webhooks.perWebhookConcurrency - (this.sendingTo.get(webhookId) ?? 0) - this.ready.countFor(webhookId)
          claimed = claimDue(sqlite, now, leaseUntil, { free, freeFor }, this.bodies)
        }
        return recorded
      })
    } catch (error) {
      for (const f of finished) f.reject(error)
      return 0
    }
    for (const [i, f] of finished.entries()) f.resolve(results[i]!)
    for (const due of claimed) this.ready.push({ delivery: due, target: due, leaseUntil })
    this.startReady()
    return claimed.length
  }

  private leaseFrom(now: number): number {
    return claimLeaseUntil(this.deps.config.webhooks.timeoutMs, now)
  }

  /** Starts the ready jobs the caps allow. */
  private startReady(): void {
    if (this.stopped) return
    const { concurrency, perWebhookConcurrency } = this.deps.config.webhooks
    const jobs = this.ready.take((job) => {
      const webhookId = job.delivery.webhook_id
      const toWebhook = this.sendingTo.get(webhookId) ?? 0
      if (this.sending >= concurrency || toWebhook >= perWebhookConcurrency) return false
      this.sending++
      this.sendingTo.set(webhookId, toWebhook + 1)
      return true
    })
    for (const job of jobs) this.launch(job)
  }

  private launch(job: ReadyJob): void {
    const { delivery } = job
    const now = this.deps.clock.now()
    if (job.leaseUntil - now < this.deps.config.webhooks.timeoutMs + 5_000) {
      // It waited in the queue long enough (slow receivers) that the claim could run out mid-send.
      this.deps.sqlite.query('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?').run(this.leaseFrom(now), delivery.id)
    }
    let released = false
    const release = (outcome?: AttemptOutcome) => {
      if (released) return
      released = true
      // Gone: the webhook is disabled by this answer, so what it has ready must not start in its slot.
      if (outcome?.responseCode === 410) this.gone.push(...this.ready.takeFor(delivery.webhook_id))
      this.sending--
      const left = (this.sendingTo.get(delivery.webhook_id) ?? 1) - 1
      if (left <= 0) this.sendingTo.delete(delivery.webhook_id)
      else this.sendingTo.set(delivery.webhook_id, left)
      this.startReady()
      // Write at once if this webhook has nothing more ready (its next rows need a claim), else batch.
      const urgent = this.ready.countFor(delivery.webhook_id) === 0 || this.finished.length >= TICK_BATCH || this.stopped || this.gone.length > 0
      this.scheduleTick(!urgent)
    }
    const running = this.send(delivery, job.target, release)
      .catch((error) => this.deps.log.error('webhook delivery failed unexpectedly', { delivery_id: delivery.id, error }))
      .finally(() => {
        release()
        this.inFlight.delete(delivery.id)
      })
    this.inFlight.set(delivery.id, running)
  }

  /** Sends one claimed delivery and records the outcome (exported through sendNow for manual sends). */
  async deliver(delivery: ClaimedDelivery): Promise<AttemptOutcome | undefined> {
    return this.send(delivery, findDeliveryTarget(this.deps.sqlite, delivery.id), () => {})
  }

  /** `sent` is called as soon as the receiver has answered (or not): the slot is free before the outcome is written. */
  private async send(delivery: ClaimedDelivery, target: DeliveryTarget | undefined, sent: (outcome: AttemptOutcome) => void): Promise<AttemptOutcome | undefined> {
    const { config, log, sqlite } = this.deps
    if (!target) return undefined
    if (target.enabled !== 1 && delivery.trigger !== 'test' && delivery.trigger !== 'retry') {
      // Disabled since it was queued.
      skipDeliveries(sqlite, [delivery.id])
      return undefined
    }
    const outcome = await sendAttempt(
      {
        url: target.url,
        secret: this.secrets.open(delivery.webhook_id, target.secret_sealed),
        body: target.body,
        eventId: delivery.event_id,
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        userAgent: this.userAgent,
        now: this.deps.clock.now(),
      },
      { timeoutMs: config.webhooks.timeoutMs, allowedCidrs: allowedCidrsFromColumn(target.allowed_cidrs), signal: this.abort.signal, ...this.attemptOptions },
    )
    sent(outcome)
    if (this.abort.signal.aborted && !outcome.ok) {
      // Shutting down mid-send.
      releaseClaims(sqlite, [delivery.id])
      return outcome
    }
    const result = await this.record(delivery, outcome)
    // Every attempt has its delivery record; the log carries the failures (successes at debug).
    log[outcome.ok ? 'debug' : 'info']('webhook delivery', {
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      event_id: delivery.event_id,
      attempt: delivery.attempt,
      outcome: outcome.ok ? 'success' : 'failed',
      response_code: outcome.responseCode,
      error_class: outcome.errorClass,
      duration_ms: outcome.responseTimeMs,
    })
    if (result.disabled) log.warn('webhook disabled', { webhook_id: delivery.webhook_id, organization_id: delivery.organization_id, reason: result.disabled })
    return outcome
  }

  /** Queues an outcome for a tick's transaction (at the latest the one in TICK_DELAY_MS). */
  private record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<OutcomeResult> {
    return new Promise((resolve, reject) => {
      this.finished.push({ delivery, outcome, resolve, reject })
      this.scheduleTick(true)
    })
  }

  /** Stops claiming, waits up to `graceMs` for sends in flight, then aborts the rest (they are sent again after a restart). */
  async stop(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    // Claimed but never started.
    releaseClaims(this.deps.sqlite, idsOf(this.ready.drain()))
    const all = Promise.allSettled([...this.inFlight.values()])
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref?.())
    if ((await Promise.race([all, timer])) === 'timeout') {
      this.abort.abort()
      await all
    }
  }
}
