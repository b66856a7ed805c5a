// EventBodies: each event's stored envelope is read once for all its deliveries, and the cache empties
// itself rather than grow past its byte budget.
import { describe, expect, test } from 'bun:test'
import { openSqlite } from '../../../src/db/sqlite.ts'
import { EventBodies } from '../../../src/modules/webhooks/event-bodies.ts'

async function eventsDb(bodies: Record<string, string>) {
  const db = openSqlite(':memory:')
  await db.raw.run('CREATE TABLE events (id TEXT PRIMARY KEY, body TEXT NOT NULL)')
  for (const [id, body] of Object.entries(bodies)) await db.raw.run('INSERT INTO events VALUES (?, ?)', [id, body])
  return db
}

describe('EventBodies', () => {
  test('fills each row with its event body, once per event, and drops rows whose event is gone', async () => {
    const db = await eventsDb({ evt_a: '{"id":"evt_a"}', evt_b: '{"id":"evt_b"}' })
    const bodies = new EventBodies()
    const rows = [
      { id: 'dlv_1', event_id: 'evt_a' },
      { id: 'dlv_2', event_id: 'evt_b' },
      { id: 'dlv_3', event_id: 'evt_a' },
      { id: 'dlv_4', event_id: 'evt_gone' },
    ]
    expect(await bodies.fill(db, rows)).toEqual([
      { id: 'dlv_1', event_id: 'evt_a', body: '{"id":"evt_a"}' },
      { id: 'dlv_2', event_id: 'evt_b', body: '{"id":"evt_b"}' },
      { id: 'dlv_3', event_id: 'evt_a', body: '{"id":"evt_a"}' },
    ])
    // Kept: a later claim of the same event does not read it again (here: it could not, it is deleted).
    await db.raw.run("DELETE FROM events WHERE id = 'evt_a'")
    expect(await bodies.fill(db, [{ event_id: 'evt_a' }])).toEqual([{ event_id: 'evt_a', body: '{"id":"evt_a"}' }])
    await db.close()
  })

  test('past its byte budget it starts over instead of growing', async () => {
    const db = await eventsDb({ evt_a: 'a'.repeat(60), evt_b: 'b'.repeat(60) })
    const bodies = new EventBodies(100)
    await bodies.fill(db, [{ event_id: 'evt_a' }])
    await bodies.fill(db, [{ event_id: 'evt_b' }])
    // evt_a was let go to make room for evt_b: gone from the table, it is gone for good.
    await db.raw.run('DELETE FROM events')
    expect(await bodies.fill(db, [{ event_id: 'evt_a' }, { event_id: 'evt_b' }])).toEqual([{ event_id: 'evt_b', body: 'b'.repeat(60) }])
    await db.close()
  })
})
