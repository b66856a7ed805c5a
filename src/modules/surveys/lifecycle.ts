// The survey lifecycle as a table: an offer is answered (responded) or expires; a response stays
// responded when it is edited within the edit window; nothing leaves expired.
import { AppError } from '../../errors.ts'

export const SURVEY_STATUSES = ['offered', 'responded', 'expired'] as const
export type SurveyStatus = (typeof SURVEY_STATUSES)[number]

/** A response may be changed through its link this long after it was first recorded. */
export const EDIT_WINDOW_MS = 24 * 3_600_000

export const SURVEY_TRANSITIONS: Record<SurveyStatus, readonly SurveyStatus[]> = {
  offered: ['responded', 'expired'],
  responded: ['responded'],
  expired: [],
}

/** 409 naming both states unless `from -> to` is in the table. */
export function assertSurveyTransition(from: SurveyStatus, to: SurveyStatus, why = ''): void {
  if (SURVEY_TRANSITIONS[from].includes(to)) return
  const article = from === 'responded' ? 'A' : 'An'
  throw new AppError('INVALID_STATE_TRANSITION', `${article} ${from} survey cannot become ${to}${why}`)
}
