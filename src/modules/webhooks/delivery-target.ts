// What a delivery is sent to and with: its webhook's url, sealed secret and state, its organization's
// allowed ranges, and the stored event body (the exact bytes of every attempt). The dispatcher's claims read these themselves
// (claim-due.ts); this is for a single manual send.
import type { Database } from 'bun:sqlite'

export interface DeliveryTarget {
  url: string
  secret_sealed: string
  enabled: number
  /** webhook_allowed_cidrs.cidrs of the organization (JSON), or null: public addresses only. */
  allowed_cidrs: string | null
  body: string
}

const TARGET = `SELECT w.url, w.secret_sealed, w.enabled, a.cidrs AS allowed_cidrs, e.body FROM webhook_deliveries d
  JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
  LEFT JOIN webhook_allowed_cidrs a ON a.organization_id = w.organization_id WHERE d.id = ?`

/** The target of one delivery; undefined if its webhook is gone. */
export function findDeliveryTarget(sqlite: Database, deliveryId: string): DeliveryTarget | undefined {
  return sqlite.query<DeliveryTarget, [string]>(TARGET).get(deliveryId) ?? undefined
}
