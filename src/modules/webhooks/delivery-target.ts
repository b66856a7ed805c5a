// What a claimed delivery is sent to and with: its webhook's url, sealed secret and state, and the
// stored event body (the exact bytes of every attempt). Read for a whole claim in one query.
import type { Database } from 'bun:sqlite'

export interface DeliveryTarget {
  url: string
  secret_sealed: string
  enabled: number
  body: string
}

const TARGETS = `SELECT d.id, w.url, w.secret_sealed, w.enabled, e.body FROM json_each(?) j
  JOIN webhook_deliveries d ON d.id = j.value JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id`

/** The targets of these deliveries, by delivery id (a delivery whose webhook is gone has none). */
export function findDeliveryTargets(sqlite: Database, deliveryIds: readonly string[]): Map<string, DeliveryTarget> {
  const rows = sqlite.query<DeliveryTarget & { id: string }, [string]>(TARGETS).all(JSON.stringify(deliveryIds))
  return new Map(rows.map((row) => [row.id, row]))
}
