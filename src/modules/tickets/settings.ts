// The tickets module's settings (assembled by src/config.ts): when solved tickets are closed, and how often the task runs.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  TICKET_AUTO_CLOSE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 4,
    description: 'Days after which a solved ticket is closed by the cron loop (1–365).',
  }),
  TICKET_AUTO_CLOSE_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 600,
    description:
      'Seconds between runs of the `ticket_auto_close` cron task (1–86400): a solved ticket is closed at most this long after it reaches `TICKET_AUTO_CLOSE_DAYS`.',
  }),
} satisfies Record<string, TSchema>

export interface TicketsSlice {
  readonly ticketAutoCloseDays: number
  readonly ticketAutoCloseIntervalMs: number
}

export function ticketsSlice(values: SettingValues): TicketsSlice {
  return {
    ticketAutoCloseDays: values.TICKET_AUTO_CLOSE_DAYS as number,
    ticketAutoCloseIntervalMs: (values.TICKET_AUTO_CLOSE_INTERVAL as number) * 1000,
  }
}
