// The reports module's settings (assembled by src/config.ts): how often the fold reads the event log.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  REPORTS_FOLD_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description:
      "Seconds between runs of the `reports_fold` cron task (1–3600), which folds new events into the reports' hourly and daily totals (each run reads until caught up, for at most half the interval). Reports are exact either way: they fold the newest events themselves; a longer interval only makes them read more.",
  }),
} satisfies Record<string, TSchema>

export interface ReportsSlice {
  readonly reportsFoldIntervalMs: number
}

export function reportsSlice(values: SettingValues): ReportsSlice {
  return { reportsFoldIntervalMs: (values.REPORTS_FOLD_INTERVAL as number) * 1000 }
}
