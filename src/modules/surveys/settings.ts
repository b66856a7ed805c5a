// The surveys module's settings (assembled by src/config.ts): how long a survey offer stays answerable.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  SURVEY_EXPIRY_HOURS: Type.Number({
    minimum: 0.001,
    maximum: 8760,
    default: 168,
    description:
      'Hours a survey offer stays answerable before the cron loop marks it `expired` (0.001–8760; decimals allowed, `0.001` is 3.6 s).',
  }),
} satisfies Record<string, TSchema>

export interface SurveysSlice {
  /** An unanswered survey offer expires this long after it was made. */
  readonly surveyExpiryMs: number
}

export function surveysSlice(values: SettingValues): SurveysSlice {
  return { surveyExpiryMs: Math.round((values.SURVEY_EXPIRY_HOURS as number) * 3_600_000) }
}
