// The public JSON of a webhook: never its secret.
import { isoTime } from '../../lib/clock.ts'
import type { WebhookRow } from './store/webhooks.ts'

export type { WebhookRow }

export function webhookJson(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    // 0/1 on SQLite.
    enabled: Boolean(row.enabled),
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at === null ? null : isoTime(Number(row.disabled_at)),
    consecutive_failures: Number(row.consecutive_failures),
    last_success_at: row.last_success_at === null ? null : isoTime(Number(row.last_success_at)),
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}
