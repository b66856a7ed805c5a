// The stored envelopes of recently claimed events, kept for the dispatcher's next claims: an event
// goes to every webhook that subscribes to it, so its body is read once, not once per delivery.
// Bounded by bytes (an envelope can be 256 KB); emptied when full, which only costs re-reading.
import type { Database } from 'bun:sqlite'

// INDEXED BY: each id of the list looked up by primary key. Left to the planner, statistics taken while
// the table was tiny (an early PRAGMA optimize) make it scan every event on every claim instead.
export const BODIES = 'SELECT id, body FROM events INDEXED BY sqlite_autoindex_events_1 WHERE id IN (SELECT value FROM json_each(?))'

export class EventBodies {
  private readonly bodies = new Map<string, string>()
  private bytes = 0

  constructor(private readonly maxBytes = 4 * 1024 * 1024) {}

  /** Sets `body` on each row from the cache, reading the missing ones in one query. */
  fill<T extends { event_id: string }>(sqlite: Database, rows: T[]): Array<T & { body: string }> {
    const missing = [...new Set(rows.filter((row) => !this.bodies.has(row.event_id)).map((row) => row.event_id))]
    if (missing.length > 0) {
      for (const { id, body } of sqlite.query<{ id: string; body: string }, [string]>(BODIES).all(JSON.stringify(missing))) this.remember(id, body)
    }
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
