// The in-process implementation of the Wakeups port (ports.ts): "deliveries were queued" reaches the
// dispatchers of this process, once per turn of the microtask queue however many commits queued some.
// Several instances will share the call through Redis instead.
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
}
