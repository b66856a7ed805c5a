// EventBodies: each event's stored envelope is read once for all its deliveries, in one query for
// many events, and the cache empties itself rather than grow past its byte budget.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { EventBodies } from '../../../src/modules/webhooks/event-bodies.ts'

function eventsDb(bodies: Record<string, string>) {
  const sqlite = new Database(':memory:')
  sqlite.run('CREATE TABLE events (id TEXT PRIMARY KEY, body TEXT NOT NULL)')
  for (const [id, body] of Object.entries(bodies)) sqlite.query('INSERT INTO events VALUES (?, ?)').run(id, body)
  return sqlite
}

describe('EventBodies', () => {
  test('fills each row with its event body, once per event, and drops rows whose event is gone', () => {
    const sqlite = eventsDb({ evt_a: '{"id":"evt_a"}', evt_b: '{"id":"evt_b"}' })
    const bodies = new EventBodies()
    const rows = [{ id: 'dlv_1', event_id: 'evt_a' }, { id: 'dlv_2', event_id: 'evt_b' }, { id: 'dlv_3', event_id: 'evt_a' }, { id: 'dlv_4', event_id: 'evt_gone' }]
    expect(bodies.fill(sqlite, rows)).toEqual([
      { id: 'dlv_1', event_id: 'evt_a', body: '{"id":"evt_a"}' },
      { id: 'dlv_2', event_id: 'evt_b', body: '{"id":"evt_b"}' },
      { id: 'dlv_3', event_id: 'evt_a', body: '{"id":"evt_a"}' },
    ])
    // Kept: a later claim of the same event does not read it again (here: it could not, it is deleted).
    sqlite.run("DELETE FROM events WHERE id = 'evt_a'")
    expect(bodies.fill(sqlite, [{ event_id: 'evt_a' }])).toEqual([{ event_id: 'evt_a', body: '{"id":"evt_a"}' }])
  })

  test('past its byte budget it starts over instead of growing', () => {
    const sqlite = eventsDb({ evt_a: 'a'.repeat(60), evt_b: 'b'.repeat(60) })
    const bodies = new EventBodies(100)
    bodies.fill(sqlite, [{ event_id: 'evt_a' }])
    bodies.fill(sqlite, [{ event_id: 'evt_b' }])
    // evt_a was let go to make room for evt_b: gone from the table, it is gone for good.
    sqlite.run('DELETE FROM events')
    expect(bodies.fill(sqlite, [{ event_id: 'evt_a' }, { event_id: 'evt_b' }])).toEqual([{ event_id: 'evt_b', body: 'b'.repeat(60) }])
  })
})
