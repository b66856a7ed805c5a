// The dispatcher's claimed-but-not-started deliveries, in claim order, with counts per webhook: a
// send that ends starts the next one from here at once, so a slot never waits for a transaction.
import type { DeliveryTarget } from './delivery-target.ts'
import type { ClaimedDelivery } from './record-outcome.ts'

export interface ReadyJob {
  delivery: ClaimedDelivery
  target: DeliveryTarget | undefined
  /** When this process's claim on it runs out. */
  leaseUntil: number
}

export class ReadyQueue {
  private jobs: ReadyJob[] = []
  private readonly perWebhook = new Map<string, number>()

  get size(): number {
    return this.jobs.length
  }

  countFor(webhookId: string): number {
    return this.perWebhook.get(webhookId) ?? 0
  }

  push(job: ReadyJob): void {
    this.jobs.push(job)
    this.perWebhook.set(job.delivery.webhook_id, this.countFor(job.delivery.webhook_id) + 1)
  }

  /**
   * Removes and returns, in order, the jobs `canStart` lets go (it is asked again after each one it
   * accepts): first attempts before retries, so one dead receiver's retries cannot hold up new events.
   */
  take(canStart: (job: ReadyJob) => boolean): ReadyJob[] {
    const taken: ReadyJob[] = []
    for (const firstAttempts of [true, false]) {
      for (const job of this.jobs) {
        if ((job.delivery.attempt === 1) === firstAttempts && canStart(job)) taken.push(job)
      }
    }
    if (taken.length === 0) return taken
    const gone = new Set(taken)
    this.jobs = this.jobs.filter((job) => !gone.has(job))
    for (const job of taken) {
      const left = this.countFor(job.delivery.webhook_id) - 1
      if (left <= 0) this.perWebhook.delete(job.delivery.webhook_id)
      else this.perWebhook.set(job.delivery.webhook_id, left)
    }
    return taken
  }

  /** Removes and returns the jobs of one webhook. */
  takeFor(webhookId: string): ReadyJob[] {
    return this.take((job) => job.delivery.webhook_id === webhookId)
  }

  /** Empties the queue, returning what it held. */
  drain(): ReadyJob[] {
    const jobs = this.jobs
    this.jobs = []
    this.perWebhook.clear()
    return jobs
  }
}
