// The Stripe events already handled (stripe_events), by Stripe's event id: the row is inserted in the
// transaction of the event's effect, so a replayed event finds it and changes nothing.
import type { Queries, Tx } from '../../../db/database.ts'
import type { StripeEventsTable } from '../table.ts'

/** Inserts the event's row; false when it was there already (a replay). */
export async function insertStripeEvent(tx: Tx, row: StripeEventsTable): Promise<boolean> {
  const changed = await tx.raw.run(
    'INSERT INTO stripe_events (id, type, organization_id, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    [row.id, row.type, row.organization_id, row.received_at],
  )
  return changed > 0
}

export function findStripeEvent(db: Queries, id: string): Promise<StripeEventsTable | undefined> {
  return db.raw.get<StripeEventsTable>('SELECT * FROM stripe_events WHERE id = ?', [id])
}
