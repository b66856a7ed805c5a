// webhooks: the organization's registered receivers (secret sealed with the master key), their
// failure state; webhook_deliveries: one row per delivery attempt of an event to a webhook. The
// pending row of an event is its job: the dispatcher claims it with a lease, sends, and closes it.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { sql } from 'drizzle-orm'
import { events } from '../events/table.ts'
import { organizations } from '../organizations/table.ts'

export const DISABLED_REASONS = ['exhausted', 'gone', 'manual'] as const
export type DisabledReason = (typeof DISABLED_REASONS)[number]

export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    organization_id: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    /** JSON array of event names, `*` or group prefixes like `ticket.*`. */
    events: text('events').notNull(),
    /** The signing secret, sealed with the master key (bound to the webhook id). */
    secret_sealed: text('secret_sealed').notNull(),
    description: text('description'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    disabled_reason: text('disabled_reason', { enum: DISABLED_REASONS }),
    disabled_at: integer('disabled_at'),
    /** Failed attempts since the last success (0 after one). */
    consecutive_failures: integer('consecutive_failures').notNull(),
    failing_since: integer('failing_since'),
    last_success_at: integer('last_success_at'),
    created_at: integer('created_at').notNull(),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [index('webhooks_org_created').on(t.organization_id, t.created_at, t.id)],
)

export const DELIVERY_STATUSES = ['pending', 'success', 'failed', 'skipped'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** Why an attempt exists: the event itself, a test, a manual retry, a recovery after a disabled spell. */
export const DELIVERY_TRIGGERS = ['event', 'test', 'retry', 'recover'] as const
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number]

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    organization_id: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    webhook_id: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event_id: text('event_id')
      .notNull()
      .references(() => events.id),
    event_type: text('event_type').notNull(),
    attempt: integer('attempt').notNull(),
    trigger: text('trigger', { enum: DELIVERY_TRIGGERS }).notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    /** Pending: when it is due. */
    next_attempt_at: integer('next_attempt_at'),
    /** Pending and claimed: the claim holds until then (a crashed sender's claim runs out). */
    lease_until: integer('lease_until'),
    response_code: integer('response_code'),
    response_time_ms: integer('response_time_ms'),
    /** The first 16 KB of the receiver's answer. */
    response_body: text('response_body'),
    error_class: text('error_class'),
    error_message: text('error_message'),
    delivered_at: integer('delivered_at'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [
    // What the dispatcher claims, per webhook in due order: first attempts and retries apart, so each
    // can be found without walking the other, nor another webhook's backlog (see claim-due.ts). The
    // lease is in the key so that rows claimed already are passed over without reading the table.
    index('webhook_deliveries_due_first').on(t.webhook_id, t.next_attempt_at, t.lease_until).where(sql`status = 'pending' AND attempt = 1`),
    index('webhook_deliveries_due_retry').on(t.webhook_id, t.next_attempt_at, t.lease_until).where(sql`status = 'pending' AND attempt > 1`),
    index('webhook_deliveries_webhook_created').on(t.webhook_id, t.created_at, t.id),
    index('webhook_deliveries_event').on(t.event_id),
  ],
)

/**
 * The ranges an organization's webhooks may reach although they are not public (internal receivers):
 * set only by the operator (`switchboard org webhook-cidrs`), never by the tenant, since a delivery
 * record shows the tenant the first 16 KB of each answer. No row: public addresses only.
 */
export const webhookAllowedCidrs = sqliteTable('webhook_allowed_cidrs', {
  organization_id: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  /** JSON array of CIDR ranges as the operator wrote them, each checked by parseAllowedCidrs. */
  cidrs: text('cidrs').notNull(),
  updated_at: integer('updated_at').notNull(),
})

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
