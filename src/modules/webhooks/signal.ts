// The wake-up call from fanOut to the dispatchers: delivered in a microtask, i.e. once the synchronous
// write transaction that queued the deliveries is over (committed, or rolled back and then harmless).
// Process-wide on purpose: emit() runs inside a transaction and knows no dispatcher; a dispatcher that
// wakes for another app's database finds nothing due and goes back to sleep.

const listeners = new Set<() => void>()
let scheduled = false

/** Calls `listener` after every transaction that queued deliveries; returns the unsubscribe. */
export function onDeliveriesQueued(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function deliveriesQueued(): void {
  if (scheduled) return
  scheduled = true
  queueMicrotask(() => {
    scheduled = false
    for (const listener of listeners) listener()
  })
}

/** The in-process wake-ups as the context's port. */
export const processWakeups = { onDeliveriesQueued, deliveriesQueued }
