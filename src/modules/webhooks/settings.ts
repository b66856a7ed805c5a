// The webhooks module's settings (assembled by src/config.ts): the receiver's timeout, the retry schedule, concurrency, retention.
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, type SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 30_000,
    description: 'How long a webhook receiver has to answer (1000–120000 ms); no 2xx within it counts as a failure.',
  }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '0,60,300,1800,7200,28800',
    description:
      "Seconds before each delivery attempt, comma-separated, starting with 0: the spec's six attempts (at once, 1 min, 5 min, 30 min, 2 h, 8 h). Its length is the number of attempts.",
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 32,
    description: 'Deliveries in flight at once, all webhooks together (1–1024).',
  }),
  WEBHOOK_CONCURRENCY_PER_WEBHOOK: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 4,
    description: 'Deliveries in flight at once to one webhook (1–1024): raise it for a fast receiver of many events.',
  }),
  WEBHOOK_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 30,
    description: 'Days a webhook delivery record is kept (1–3650).',
  }),
} satisfies Record<string, TSchema>

export interface WebhooksSlice {
  readonly webhooks: {
    readonly timeoutMs: number
    /** Milliseconds before each attempt; its length is the number of attempts. */
    readonly retryScheduleMs: readonly number[]
    readonly concurrency: number
    readonly perWebhookConcurrency: number
    readonly retentionDays: number
  }
}

export function webhooksSlice(values: SettingValues): WebhooksSlice {
  return {
    webhooks: Object.freeze({
      timeoutMs: values.WEBHOOK_TIMEOUT_MS as number,
      retryScheduleMs: Object.freeze(parseRetrySchedule(values.WEBHOOK_RETRY_SCHEDULE as string)),
      concurrency: values.WEBHOOK_CONCURRENCY as number,
      perWebhookConcurrency: values.WEBHOOK_CONCURRENCY_PER_WEBHOOK as number,
      retentionDays: values.WEBHOOK_RETENTION_DAYS as number,
    }),
  }
}

/** `0,60,300`: 1 to 20 attempts, each delay 0 to 7 days in whole seconds, the first one 0 (attempt 1 goes at once). */
function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim())
  const fail = (why: string) => new ConfigError(`WEBHOOK_RETRY_SCHEDULE ${why} (got ${JSON.stringify(text)})`)
  if (parts.length > 20) throw fail('must list at most 20 attempts')
  const delays = parts.map((p) => {
    if (!/^\d{1,6}$/.test(p) || Number(p) > 7 * 86_400) throw fail('must be comma-separated whole seconds, each at most 604800')
    return Number(p) * 1000
  })
  if (delays[0] !== 0) throw fail('must start with 0: the first attempt goes at once')
  return delays
}
