// Bulk seeding for benchmarks: many tickets straight into the database file in large transactions
// (the same columns createTicket writes), instead of one HTTP call each.
import { Database } from 'bun:sqlite'
import { prefixedId } from '../../src/lib/ids.ts'
import { STATUSES } from '../../src/modules/tickets/lifecycle.ts'

export function seedTickets(dbPath: string, organizationId: string, count: number, startMs: number): void {
  const db = new Database(dbPath)
  db.run('PRAGMA busy_timeout = 5000')
  const insert = db.query(
    `INSERT INTO tickets (id, organization_id, number, subject, description, status, priority, type, channel, requester_name, requester_email,
      assignee_id, tags, custom_fields, created_at, updated_at, solved_at, closed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 'api', ?, ?, NULL, '[]', '{}', ?, ?, NULL, NULL)`,
  )
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // Two tickets per second, so created_at has ties that the id breaks.
      const at = startMs + Math.floor(i / 2) * 1000
      insert.run(
        prefixedId('tkt'),
        organizationId,
        i + 1,
        `Seeded ticket ${i + 1}`,
        'Customer reports a problem with their order.',
        STATUSES[i % 4]!,
        i % 4,
        `Customer ${i}`,
        `customer${i}@example.com`,
        at,
        at,
      )
    }
  })
  for (let from = 0; from < count; from += 10_000) batch.immediate(from, Math.min(count, from + 10_000))
  db.query(
    'INSERT INTO ticket_counters (organization_id, last_number) VALUES (?, ?) ON CONFLICT (organization_id) DO UPDATE SET last_number = excluded.last_number',
  ).run(organizationId, count)
  db.run('PRAGMA optimize')
  db.close()
}
