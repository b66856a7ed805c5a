// The dispatcher: claims due deliveries with a lease (see claim-due.ts), sends each outside any
// transaction, and records the outcome in a short one. Woken after every commit that queued
// deliveries, on any instance (the Wakeups port: attempt 1 goes at once), and by the cron loop on every
// instance (retries, wake-ups lost while Redis was away, and anything a crash left: a claim whose lease
// ran out is due again, so a delivery is sent at least once, maybe twice).
// WEBHOOK_CONCURRENCY caps sends in flight, WEBHOOK_CONCURRENCY_PER_WEBHOOK (4) those to one webhook;
// first attempts are claimed before retries.
//
// Claims run ahead of the sends: up to CLAIM_AHEAD times the caps, and the ones not yet started wait
// in a ready queue, so a send that ends starts the next at once. One transaction (a "tick") does all
// the bookkeeping for many sends: it records the outcomes of those that ended and tops the queue up;
// it runs at once when a webhook's queue runs dry, otherwise within TICK_DELAY_MS, batching the rest.
// Ticks never overlap: one asked for while another runs follows it.
import type { AppContext } from '../../context.ts'
import { cachingResolver } from '../../lib/dns-cache.ts'
import type { DeliveryService, ReadyQueue } from '../../ports.ts'
import { allowedCidrsFromColumn } from './allowed-cidrs.ts'
import { claimDue } from './claim-due.ts'
import { EventBodies } from './event-bodies.ts'
import { claimLeaseUntil } from './queue-delivery.ts'
import { LocalReadyQueue, type ReadyJob } from './ready-queue.ts'
import { closesOnly, type OutcomeResult, recordOutcomes } from './record-outcome.ts'
import { OpenedSecrets } from './secret.ts'
import { resolveAll, sendAttempt, type AttemptOptions, type AttemptOutcome } from './send-attempt.ts'
import { findClaimedDelivery } from './store/deliveries.ts'
import {
  type ClaimedDelivery,
  type DeliveryTarget,
  type DueDelivery,
  extendLease,
  releaseClaims,
  skipDeliveries,
} from './store/dispatch.ts'

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

/** What the dispatcher needs of the app's context (built before the context, which carries the dispatcher). */
export type DispatcherDeps = Pick<AppContext, 'db' | 'clock' | 'log' | 'config' | 'masterKey' | 'version' | 'ports'>

export interface DispatcherOptions extends Pick<AttemptOptions, 'extraCa' | 'resolve'> {
  /** Where claimed deliveries wait for a free sender; in memory by default. */
  ready?: ReadyQueue<ReadyJob>
}

const idsOf = (jobs: readonly ReadyJob[]) => jobs.map((job) => job.delivery.id)

interface Finished {
  delivery: ClaimedDelivery
  outcome: AttemptOutcome
  resolve(result: OutcomeResult): void
  reject(error: unknown): void
}

export class WebhookDispatcher implements DeliveryService {
  /** Every started delivery not yet recorded (what stop() and settled() wait for). */
  private readonly inFlight = new Map<string, Promise<unknown>>()
  private readonly ready: ReadyQueue<ReadyJob>
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
  /** The tick under way, and whether another was asked for meanwhile. */
  private running: Promise<number> | undefined
  private again = false
  private tickScheduled = false
  private tickTimer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly deps: DispatcherDeps,
    options: DispatcherOptions = {},
  ) {
    this.userAgent = `Switchboard-Webhooks/${deps.version}`
    this.secrets = new OpenedSecrets(deps.masterKey)
    this.ready = options.ready ?? new LocalReadyQueue()
    this.attemptOptions = { extraCa: options.extraCa, resolve: cachingResolver(options.resolve ?? resolveAll, DNS_TTL_MS) }
  }

  /** Listens for queued deliveries and sends what is due now. */
  start(): this {
    // Woken once per turn of the event loop, however many transactions queued deliveries in it.
    this.unsubscribe = this.deps.ports.wakeups.onDeliveriesQueued(() => this.scheduleTick())
    this.kick()
    return this
  }

  /** Deliveries claimed by this dispatcher and not yet recorded: sending, or ready to. */
  get inFlightCount(): number {
    return this.inFlight.size + this.ready.size
  }

  /** Resolves once nothing is in flight, ready or about to be recorded (sends started meanwhile included). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.ready.size > 0 || this.running || this.tickScheduled || this.tickTimer !== undefined) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()])
      else if (this.running) await this.running.catch(() => 0)
      else await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /** Records finished sends, claims due deliveries as far as the caps allow and starts them; resolves to how many it claimed. */
  async pump(): Promise<number> {
    // Ticks never overlap: a second one waits for the first (whose failure is its caller's to see).
    while (this.running) await this.running.catch(() => 0)
    const run = this.tick()
    this.running = run
    try {
      return await run
    } finally {
      this.running = undefined
      if (this.again) {
        this.again = false
        this.scheduleTick()
      }
    }
  }

  /** A tick now, or right after the one under way. */
  private kick(): void {
    if (this.running) this.again = true
    else this.pump().catch((error) => this.deps.log.error('webhook dispatch failed', { error }))
  }

  /** A tick in this turn of the event loop, or (`soon`) within TICK_DELAY_MS. */
  private scheduleTick(soon = false): void {
    if (this.tickScheduled) return
    if (soon) {
      this.tickTimer ??= setTimeout(() => {
        this.tickTimer = undefined
        this.kick()
      }, TICK_DELAY_MS)
      return
    }
    this.tickScheduled = true
    setImmediate(() => {
      this.tickScheduled = false
      this.kick()
    })
  }

  /** Claims this dispatcher may still hold, in all and for one webhook. */
  private free(): number {
    return this.stopped ? 0 : CLAIM_AHEAD * this.deps.config.webhooks.concurrency - this.sending - this.ready.size
  }

  private freeFor(webhookId: string): number {
    return (
      CLAIM_AHEAD * this.deps.config.webhooks.perWebhookConcurrency - (this.sendingTo.get(webhookId) ?? 0) - this.ready.countFor(webhookId)
    )
  }

  private async tick(): Promise<number> {
    if (this.tickTimer !== undefined) {
      clearTimeout(this.tickTimer)
      this.tickTimer = undefined
    }
    if (this.finished.length === 0 && this.gone.length === 0 && this.free() <= 0) return 0
    const { config, db, clock } = this.deps
    // Taken before the transaction, whose block may run more than once (a deadlock with another
    // instance's tick): each run records all of them, and none is lost to a run that rolled back.
    const finished = this.finished.splice(0)
    const goneJobs = this.gone.splice(0)
    const gone = idsOf(goneJobs)
    let claimed: DueDelivery[] = []
    let leaseUntil = 0
    let results: OutcomeResult[]
    try {
      results = await db.write('webhook.dispatch', async (tx) => {
        const now = clock.now()
        leaseUntil = this.leaseFrom(now)
        const claim = (free: number) => claimDue(tx, now, leaseUntil, { free, freeFor: (id) => this.freeFor(id) }, this.bodies)
        if (tx.engine === 'postgres' && gone.length === 0 && finished.every(closesOnly)) {
          // The outcomes only close their rows, so the claim needs nothing they return, and it is started
          // with them (one pipeline, one round trip, executed in order).
          const free = this.free()
          const [recorded, due] = await Promise.all([
            recordOutcomes(tx, finished, config.webhooks.retryScheduleMs, now),
            free > 0 ? claim(free) : [],
          ])
          claimed = due
          return recorded
        }
        await skipDeliveries(tx, gone)
        const recorded = await recordOutcomes(tx, finished, config.webhooks.retryScheduleMs, now)
        const free = this.free()
        if (free > 0) claimed = await claim(free)
        return recorded
      })
    } catch (error) {
      this.deps.log.error('webhook dispatch transaction failed', { error })
      // Still to skip at the next tick.
      this.gone.push(...goneJobs)
      for (const f of finished) f.reject(error)
      return 0
    }
    // Disabled now (all attempts failed, or 410 Gone): what it has ready is not sent, but kept for
    // recovery. Taken from the queue once committed (a block run again must not lose them), before
    // anything else can start one; a send that found its webhook off would skip it just the same.
    const disabled = results.flatMap((result, i) => (result.disabled ? idsOf(this.ready.takeFor(finished[i]!.delivery.webhook_id)) : []))
    if (disabled.length > 0) await skipDeliveries(db, disabled).catch((error) => this.deps.log.error('webhook skip failed', { error }))
    for (const [i, f] of finished.entries()) f.resolve(results[i]!)
    if (this.stopped) {
      // Stopped while the claim ran (possible on an engine that interleaves): give it back unsent.
      await releaseClaims(
        db,
        claimed.map((due) => due.id),
      )
      return 0
    }
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
      const urgent =
        this.ready.countFor(delivery.webhook_id) === 0 || this.finished.length >= TICK_BATCH || this.stopped || this.gone.length > 0
      this.scheduleTick(!urgent)
    }
    const running = this.send(delivery, job.target, job.leaseUntil, release)
      .catch((error) => this.deps.log.error('webhook delivery failed unexpectedly', { delivery_id: delivery.id, error }))
      .finally(() => {
        release()
        this.inFlight.delete(delivery.id)
      })
    this.inFlight.set(delivery.id, running)
  }

  async sendNow(deliveryId: string): Promise<void> {
    const due = await findClaimedDelivery(this.deps.db, deliveryId)
    if (due) await this.send(due, due, undefined, () => {})
  }

  /**
   * Sends one claimed delivery and has its outcome recorded. `sent` is called as soon as the receiver
   * has answered (or not): the slot is free before the outcome is written. `leaseUntil`: when the claim
   * of a job from the ready queue runs out (extended first if a send could outlast it).
   */
  private async send(
    delivery: ClaimedDelivery,
    target: DeliveryTarget | undefined,
    leaseUntil: number | undefined,
    sent: (outcome: AttemptOutcome) => void,
  ): Promise<AttemptOutcome | undefined> {
    const { config, log, db, clock } = this.deps
    if (!target) return undefined
    if (!target.enabled && delivery.trigger !== 'test' && delivery.trigger !== 'retry') {
      // Disabled since it was queued.
      await skipDeliveries(db, [delivery.id])
      return undefined
    }
    const now = clock.now()
    // It waited in the ready queue long enough (slow receivers) that the claim could run out mid-send.
    if (leaseUntil !== undefined && leaseUntil - now < config.webhooks.timeoutMs + 5_000)
      await extendLease(db, delivery.id, this.leaseFrom(now))
    const outcome = await sendAttempt(
      {
        url: target.url,
        secret: this.secrets.open(delivery.webhook_id, target.secret_sealed),
        body: target.body,
        eventId: delivery.event_id,
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        userAgent: this.userAgent,
        now,
      },
      {
        timeoutMs: config.webhooks.timeoutMs,
        allowedCidrs: allowedCidrsFromColumn(target.allowed_cidrs),
        signal: this.abort.signal,
        ...this.attemptOptions,
      },
    )
    sent(outcome)
    if (this.abort.signal.aborted && !outcome.ok) {
      // Shutting down mid-send.
      await releaseClaims(db, [delivery.id])
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
    if (result.disabled)
      log.warn('webhook disabled', { webhook_id: delivery.webhook_id, organization_id: delivery.organization_id, reason: result.disabled })
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
    this.unsubscribe = undefined
    // A tick under way may still be claiming: it ends first.
    while (this.running) await this.running.catch(() => 0)
    // Claimed but never started.
    await releaseClaims(this.deps.db, idsOf(this.ready.drain()))
    const all = Promise.allSettled([...this.inFlight.values()])
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref?.())
    if ((await Promise.race([all, timer])) === 'timeout') {
      this.abort.abort()
      await all
    }
  }
}
