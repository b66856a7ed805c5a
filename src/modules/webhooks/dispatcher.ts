// The dispatcher: claims due deliveries with a lease (UPDATE … RETURNING), sends each outside any
// transaction, and records the outcome in a short one. Woken after every transaction that queued
// deliveries (attempt 1 goes at once) and by the cron loop (retries, and anything a crash left:
// a claim whose lease ran out is due again, so a delivery is sent at least once, maybe twice).
// WEBHOOK_CONCURRENCY caps sends in flight, 4 per webhook; first attempts are claimed before retries.
import type { Database } from 'bun:sqlite'
import type { Config } from '../../config.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import { recordOutcome, type ClaimedDelivery, type OutcomeResult } from './record-outcome.ts'
import { openWebhookSecret } from './secret.ts'
import { sendAttempt, type AttemptOutcome, type AttemptOptions } from './send-attempt.ts'
import { onDeliveriesQueued } from './signal.ts'

export const PER_WEBHOOK_CONCURRENCY = 4
export const SHUTDOWN_GRACE_MS = 10_000

export interface DispatcherDeps {
  sqlite: Database
  db: AppDatabase
  clock: Clock
  log: Logger
  config: Config
  masterKey: Uint8Array
  version: string
}

// First attempts, then retries, each in due order: two queries that walk the (status, next_attempt_at)
// index, where one ORDER BY attempt > 1 would sort every due row on every pump. Webhooks already at
// their cap are left out (?3, a JSON array), so one webhook's backlog cannot hide the others' rows.
const DUE_FIRST = `SELECT id, webhook_id FROM webhook_deliveries
  WHERE status = 'pending' AND next_attempt_at <= ?1 AND attempt = 1 AND (lease_until IS NULL OR lease_until < ?1)
    AND webhook_id NOT IN (SELECT value FROM json_each(?3))
  ORDER BY next_attempt_at LIMIT ?2`
const DUE_RETRIES = `SELECT id, webhook_id FROM webhook_deliveries
  WHERE status = 'pending' AND next_attempt_at <= ?1 AND attempt > 1 AND (lease_until IS NULL OR lease_until < ?1)
    AND webhook_id NOT IN (SELECT value FROM json_each(?3))
  ORDER BY next_attempt_at LIMIT ?2`
const CLAIM = `UPDATE webhook_deliveries SET lease_until = ?1
  WHERE id = ?2 AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?3)
  RETURNING id, organization_id, webhook_id, event_id, event_type, attempt, trigger, created_at`
const TARGET = `SELECT w.url, w.secret_sealed, w.enabled, e.body FROM webhook_deliveries d
  JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id WHERE d.id = ?`

export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<unknown>>()
  private readonly perWebhook = new Map<string, number>()
  private readonly abort = new AbortController()
  private readonly outcomes: Array<{ delivery: ClaimedDelivery; outcome: AttemptOutcome; resolve(result: OutcomeResult): void; reject(error: unknown): void }> = []
  private unsubscribe: (() => void) | undefined
  private stopped = false
  private pumping = false
  private again = false
  private pumpScheduled = false

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: Pick<AttemptOptions, 'extraCa' | 'resolve'> = {},
  ) {}

  /** Listens for queued deliveries and sends what is due now. */
  start(): this {
    this.unsubscribe = onDeliveriesQueued(() => this.pump())
    this.pump()
    return this
  }

  get inFlightCount(): number {
    return this.inFlight.size
  }

  /** Resolves once nothing is in flight (sends started meanwhile included). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.pumpScheduled) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()])
      else await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /** Claims and starts as many due deliveries as the caps allow; returns how many it started. */
  pump(): number {
    if (this.stopped) return 0
    // One pump at a time; a wake-up during one makes it look again when done.
    if (this.pumping) {
      this.again = true
      return 0
    }
    this.pumping = true
    let started = 0
    try {
      do {
        this.again = false
        started += this.claimAndStart()
      } while (this.again && !this.stopped)
    } finally {
      this.pumping = false
    }
    return started
  }

  /** One pump for all the sends that end within a turn of the event loop (one claim transaction, not one each). */
  private schedulePump(): void {
    if (this.pumpScheduled || this.stopped) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  private claimAndStart(): number {
    const free = this.deps.config.webhooks.concurrency - this.inFlight.size
    if (free <= 0) return 0
    const now = this.deps.clock.now()
    const lease = now + 2 * this.deps.config.webhooks.timeoutMs + 5_000
    const claim = this.deps.sqlite.query<ClaimedDelivery, [number, string, number]>(CLAIM)
    const claimed: ClaimedDelivery[] = []
    const planned = new Map<string, number>()
    const busy = (webhookId: string) => (this.perWebhook.get(webhookId) ?? 0) + (planned.get(webhookId) ?? 0)
    this.deps.sqlite.transaction(() => {
      // Each round leaves out the webhooks that reached their cap in the previous one.
      for (let round = 0; round < 8 && claimed.length < free; round++) {
        const saturated = JSON.stringify([...new Set([...this.perWebhook.keys(), ...planned.keys()])].filter((id) => busy(id) >= PER_WEBHOOK_CONCURRENCY))
        const want = (free - claimed.length) * 2
        const due = (sql: string, limit: number) => this.deps.sqlite.query<{ id: string; webhook_id: string }, [number, number, string]>(sql).all(now, limit, saturated)
        const candidates = due(DUE_FIRST, want)
        if (candidates.length < want) candidates.push(...due(DUE_RETRIES, want - candidates.length))
        const before = claimed.length
        for (const candidate of candidates) {
          if (claimed.length >= free) break
          if (busy(candidate.webhook_id) >= PER_WEBHOOK_CONCURRENCY) continue
          const row = claim.get(lease, candidate.id, now)
          if (!row) continue
          planned.set(candidate.webhook_id, (planned.get(candidate.webhook_id) ?? 0) + 1)
          claimed.push(row)
        }
        if (claimed.length === before) break
      }
    }).immediate()
    for (const delivery of claimed) this.launch(delivery)
    return claimed.length
  }

  private launch(delivery: ClaimedDelivery): void {
    this.perWebhook.set(delivery.webhook_id, (this.perWebhook.get(delivery.webhook_id) ?? 0) + 1)
    const running = this.deliver(delivery)
      .catch((error) => this.deps.log.error('webhook delivery failed unexpectedly', { delivery_id: delivery.id, error }))
      .finally(() => {
        this.inFlight.delete(delivery.id)
        const left = (this.perWebhook.get(delivery.webhook_id) ?? 1) - 1
        if (left <= 0) this.perWebhook.delete(delivery.webhook_id)
        else this.perWebhook.set(delivery.webhook_id, left)
        this.schedulePump()
      })
    this.inFlight.set(delivery.id, running)
  }

  /** Sends one claimed delivery and records the outcome (exported through sendNow for manual sends). */
  async deliver(delivery: ClaimedDelivery): Promise<AttemptOutcome | undefined> {
    const { config, log, masterKey, sqlite } = this.deps
    const target = sqlite.query<{ url: string; secret_sealed: string; enabled: number; body: string }, [string]>(TARGET).get(delivery.id)
    if (!target) return undefined
    if (target.enabled !== 1 && delivery.trigger !== 'test' && delivery.trigger !== 'retry') {
      // Disabled since it was queued: kept for POST /webhooks/{id}/recover.
      sqlite.query("UPDATE webhook_deliveries SET status = 'skipped', lease_until = NULL, next_attempt_at = NULL WHERE id = ?").run(delivery.id)
      return undefined
    }
    const outcome = await sendAttempt(
      {
        url: target.url,
        secret: openWebhookSecret(masterKey, delivery.webhook_id, target.secret_sealed),
        body: target.body,
        eventId: delivery.event_id,
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        userAgent: `Switchboard-Webhooks/${this.deps.version}`,
        now: this.deps.clock.now(),
      },
      { timeoutMs: config.webhooks.timeoutMs, allowedCidrs: config.webhooks.allowedCidrs, signal: this.abort.signal, ...this.options },
    )
    if (this.abort.signal.aborted && !outcome.ok) {
      // Shutting down mid-send: give the claim back so the next start sends it at once.
      sqlite.query('UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ?').run(delivery.id)
      return outcome
    }
    const result = await this.record(delivery, outcome)
    log.info('webhook delivery', {
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

  /**
   * Queues an outcome for the next group commit: the outcomes that arrive within one turn of the
   * event loop are written in one transaction (one commit for many sends, not one each).
   */
  private record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<OutcomeResult> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ delivery, outcome, resolve, reject })
      if (this.outcomes.length === 1) setImmediate(() => this.flushOutcomes())
    })
  }

  private flushOutcomes(): void {
    const batch = this.outcomes.splice(0)
    if (batch.length === 0) return
    const { config, db, sqlite } = this.deps
    const now = this.deps.clock.now()
    try {
      const results = write(db, (tx) => batch.map((b) => recordOutcome(tx, sqlite, b.delivery, b.outcome, config.webhooks.retryScheduleMs, now)))
      batch.forEach((b, i) => b.resolve(results[i]!))
    } catch (error) {
      batch.forEach((b) => b.reject(error))
    }
  }

  /** Stops claiming, waits up to `graceMs` for sends in flight, then aborts the rest (they are sent again after a restart). */
  async stop(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    const all = Promise.allSettled([...this.inFlight.values()])
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref?.())
    if ((await Promise.race([all, timer])) === 'timeout') {
      this.abort.abort()
      await all
    }
  }
}
