// webhooks: the organization's registered receivers (secret sealed with the master key), their
// failure state; webhook_deliveries: one row per delivery attempt of an event to a webhook. The
// pending row of an event is its job: the dispatcher claims it with a lease, sends, and closes it.

export const DISABLED_REASONS = ['exhausted', 'gone', 'manual'] as const
export type DisabledReason = (typeof DISABLED_REASONS)[number]

export const DELIVERY_STATUSES = ['pending', 'success', 'failed', 'skipped'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** Why an attempt exists: the event itself, a test, a manual retry, a recovery after a disabled spell. */
export const DELIVERY_TRIGGERS = ['event', 'test', 'retry', 'recover'] as const
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number]

/** A row of webhooks (Kysely). */
export interface WebhooksTable {
  id: string
  organization_id: string
  url: string
  /** JSON array of event names, `*` or group prefixes like `ticket.*`. */
  events: string
  /** The signing secret, sealed with the master key (bound to the webhook id). */
  secret_sealed: string
  description: string | null
  /** 0 or 1 on SQLite, a boolean on PostgreSQL: read with Boolean(). */
  enabled: number | boolean
  disabled_reason: DisabledReason | null
  disabled_at: number | null
  /** Failed attempts since the last success (0 after one). */
  consecutive_failures: number
  failing_since: number | null
  last_success_at: number | null
  created_at: number
  updated_at: number
}

/** A row of webhook_deliveries (Kysely): one attempt of an event to a webhook. */
export interface WebhookDeliveriesTable {
  id: string
  organization_id: string
  webhook_id: string
  event_id: string
  event_type: string
  attempt: number
  trigger: DeliveryTrigger
  status: DeliveryStatus
  /** Pending: when it is due. */
  next_attempt_at: number | null
  /** Pending and claimed: the claim holds until then (a crashed sender's claim runs out). */
  lease_until: number | null
  response_code: number | null
  response_time_ms: number | null
  /** The first 16 KB of the receiver's answer. */
  response_body: string | null
  error_class: string | null
  error_message: string | null
  delivered_at: number | null
  created_at: number
}

/** A row of webhook_allowed_cidrs (Kysely): the operator's non-public ranges of one organization. */
export interface WebhookAllowedCidrsTable {
  organization_id: string
  /** JSON array of CIDR ranges as the operator wrote them, each checked by parseAllowedCidrs. */
  cidrs: string
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    webhooks: WebhooksTable
    webhook_deliveries: WebhookDeliveriesTable
    webhook_allowed_cidrs: WebhookAllowedCidrsTable
  }
}
