// The event stream's EventSubscriber (ports.ts) of recordChange: once the transaction that wrote an
// organization's events has committed, "events were written for X" reaches every instance's open
// streams (the Wakeups port), which then read the log after their last seq. Nothing of the event travels.
import type { Tx } from '../../db/database.ts'
import type { EventSubscriber, Wakeups } from '../../ports.ts'

/** Signals each organization once per transaction, however many events it wrote. */
export function eventStreamSubscriber(wakeups: Wakeups): EventSubscriber {
  const signalled = new WeakMap<Tx, Set<string>>()
  return async (tx, event) => {
    let organizations = signalled.get(tx)
    if (!organizations) signalled.set(tx, (organizations = new Set()))
    if (organizations.has(event.organizationId)) return
    organizations.add(event.organizationId)
    const organizationId = event.organizationId
    tx.afterCommit(() => wakeups.eventsWritten(organizationId))
  }
}
