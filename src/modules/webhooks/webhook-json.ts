// The public JSON of a webhook: never its secret.
import { isoTime } from '../../lib/clock.ts'
import type { webhooks } from './table.ts'

export type WebhookRow = typeof webhooks.$inferSelect

export function webhookJson(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at === null ? null : isoTime(row.disabled_at),
    consecutive_failures: row.consecutive_failures,
    last_success_at: row.last_success_at === null ? null : isoTime(row.last_success_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}
