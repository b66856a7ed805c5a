// The engagements module's settings (assembled by src/config.ts): reopening, auto-closing idle sessions, the cron interval.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  ENGAGEMENT_REOPEN_HOURS: Type.Number({
    minimum: 0,
    maximum: 720,
    default: 24,
    description:
      "Hours after a session closed within which a contact's new inbound message reopens it; later, the message starts a new session (0–720; decimals allowed, `0.001` is 3.6 s).",
  }),
  ENGAGEMENT_AUTO_CLOSE_MINUTES: Type.Number({
    minimum: 0.01,
    maximum: 43_200,
    default: 1440,
    description:
      'Minutes without activity after which the cron loop closes an active session with `close_reason: auto_inactive` (0.01–43200; decimals allowed, `0.05` is 3 s).',
  }),
  ENGAGEMENT_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description: 'How often the cron loop wakes snoozed sessions, closes inactive ones and expires survey offers, in seconds (1–86400).',
  }),
} satisfies Record<string, TSchema>

export interface EngagementsSlice {
  readonly engagements: {
    /** A closed session reopens on an inbound message within this long. */
    readonly reopenMs: number
    /** An active session without activity this long is closed by the cron loop. */
    readonly autoCloseMs: number
    /** How often the engagement and survey cron tasks run. */
    readonly intervalMs: number
  }
}

export function engagementsSlice(values: SettingValues): EngagementsSlice {
  return {
    engagements: Object.freeze({
      reopenMs: Math.round((values.ENGAGEMENT_REOPEN_HOURS as number) * 3_600_000),
      autoCloseMs: Math.round((values.ENGAGEMENT_AUTO_CLOSE_MINUTES as number) * 60_000),
      intervalMs: (values.ENGAGEMENT_INTERVAL as number) * 1000,
    }),
  }
}
