// A survey response as the API and its events (data.response) show it.
import { isoTime } from '../../lib/clock.ts'
import { EDIT_WINDOW_MS } from './lifecycle.ts'
import type { SurveyResponseRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

/** Until when the respondent may change a response through its link; null before it is answered. */
export function editableUntil(row: SurveyResponseRow): number | null {
  return row.responded_at === null ? null : Number(row.responded_at) + EDIT_WINDOW_MS
}

export function responseJson(row: SurveyResponseRow) {
  return {
    id: row.id,
    survey_type: row.survey_type,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    contact_id: row.contact_id,
    agent_id: row.agent_id,
    team: row.team,
    channel: row.channel,
    status: row.status,
    score: row.score === null ? null : Number(row.score),
    comment: row.comment,
    reason_code: row.reason_code,
    questions: JSON.parse(row.questions) as string[],
    answers: JSON.parse(row.answers) as string[],
    offered_at: isoTime(Number(row.offered_at)),
    responded_at: time(row.responded_at),
    expires_at: isoTime(Number(row.expires_at)),
    editable_until: time(editableUntil(row)),
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type SurveyResponseJson = ReturnType<typeof responseJson>
