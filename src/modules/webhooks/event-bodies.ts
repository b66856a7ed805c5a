// The stored envelopes of recently claimed events, kept for the dispatcher's next claims: an event
// goes to every webhook that subscribes to it, so its body is read once, not once per delivery.
// Bounded by bytes (an envelope can be 256 KB); emptied when full, which only costs re-reading.
import type { Queries } from '../../db/database.ts'
import { eventBodies } from './store/dispatch.ts'

export class EventBodies {
  private readonly bodies = new Map<string, string>()
  private bytes = 0

  constructor(private readonly maxBytes = 4 * 1024 * 1024) {}

  /** Sets `body` on each row, reading the ones not kept; drops rows whose event is gone. */
  async fill<T extends { event_id: string }>(db: Queries, rows: T[]): Promise<Array<T & { body: string }>> {
    const missing = [...new Set(rows.map((row) => row.event_id))].filter((eventId) => !this.bodies.has(eventId))
    for (const [eventId, body] of await eventBodies(db, missing)) this.remember(eventId, body)
    const filled: Array<T & { body: string }> = []
    for (const row of rows) {
      const body = this.bodies.get(row.event_id)
      if (body !== undefined) filled.push(Object.assign(row, { body }))
    }
    return filled
  }

  private remember(id: string, body: string): void {
    if (this.bytes + body.length > this.maxBytes) {
      this.bodies.clear()
      this.bytes = 0
    }
    this.bodies.set(id, body)
    this.bytes += body.length
  }
}
