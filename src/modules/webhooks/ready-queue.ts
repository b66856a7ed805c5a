// The dispatcher's claimed-but-not-started deliveries (the ReadyQueue port of ports.ts, in memory): per
// webhook, first attempts and retries each in claim order, so a send that ends starts the next one from
// here at once (no transaction to wait for) and picking the next costs a look at the webhooks with jobs,
// not at every job.
import type { ReadyQueue } from '../../ports.ts'
import type { ClaimedDelivery, DeliveryTarget } from './store/dispatch.ts'

export interface ReadyJob {
  delivery: ClaimedDelivery
  target: DeliveryTarget | undefined
  /** When this process's claim on it runs out. */
  leaseUntil: number
}

interface WebhookJobs {
  first: ReadyJob[]
  retries: ReadyJob[]
}

export class LocalReadyQueue implements ReadyQueue<ReadyJob> {
  /** Webhooks with jobs, in the order their first job arrived (Map keeps insertion order). */
  private readonly byWebhook = new Map<string, WebhookJobs>()
  private count = 0

  get size(): number {
    return this.count
  }

  countFor(webhookId: string): number {
    const jobs = this.byWebhook.get(webhookId)
    return jobs ? jobs.first.length + jobs.retries.length : 0
  }

  push(job: ReadyJob): void {
    let jobs = this.byWebhook.get(job.delivery.webhook_id)
    if (!jobs) this.byWebhook.set(job.delivery.webhook_id, (jobs = { first: [], retries: [] }))
    ;(job.delivery.attempt === 1 ? jobs.first : jobs.retries).push(job)
    this.count++
  }

  /**
   * Removes and returns, webhook by webhook, the jobs `canStart` lets go. It is asked about the next
   * job of a webhook until it says no (then that webhook's other jobs wait too), and must count each
   * job it lets go as started. First attempts of every webhook before any retry, so one dead
   * receiver's retries cannot hold up new events.
   */
  take(canStart: (job: ReadyJob) => boolean): ReadyJob[] {
    const taken: ReadyJob[] = []
    for (const kind of ['first', 'retries'] as const) {
      for (const [webhookId, jobs] of this.byWebhook) {
        const queue = jobs[kind]
        while (queue.length > 0 && canStart(queue[0]!)) taken.push(queue.shift()!)
        if (jobs.first.length === 0 && jobs.retries.length === 0) this.byWebhook.delete(webhookId)
      }
    }
    this.count -= taken.length
    return taken
  }

  /** Removes and returns the jobs of one webhook. */
  takeFor(webhookId: string): ReadyJob[] {
    const jobs = this.byWebhook.get(webhookId)
    if (!jobs) return []
    this.byWebhook.delete(webhookId)
    this.count -= jobs.first.length + jobs.retries.length
    return [...jobs.first, ...jobs.retries]
  }

  /** Empties the queue, returning what it held. */
  drain(): ReadyJob[] {
    const all = [...this.byWebhook.values()].flatMap((jobs) => [...jobs.first, ...jobs.retries])
    this.byWebhook.clear()
    this.count = 0
    return all
  }
}
