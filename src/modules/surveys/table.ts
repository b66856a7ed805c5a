// The surveys module's tables as rows (Kysely): survey responses and each organization's survey
// settings. The columns are declared by src/db/migrations/0020_engagements.sql.
import type { SurveyStatus } from './lifecycle.ts'

export const SURVEY_TYPES = ['csat', 'nps', 'ces'] as const
export type SurveyType = (typeof SURVEY_TYPES)[number]

export const SUBJECT_TYPES = ['ticket', 'engagement', 'call'] as const
export type SubjectType = (typeof SUBJECT_TYPES)[number]

/** Each type's scale, both ends included. */
export const SCALES: Record<SurveyType, { min: number; max: number }> = {
  csat: { min: 1, max: 5 },
  nps: { min: 0, max: 10 },
  ces: { min: 1, max: 7 },
}

/** A row of survey_responses. */
export interface SurveyResponsesTable {
  /** `srv_…` */
  id: string
  organization_id: string
  survey_type: SurveyType
  subject_type: SubjectType
  subject_id: string
  contact_id: string | null
  agent_id: string | null
  team: string | null
  channel: string | null
  status: SurveyStatus
  score: number | null
  comment: string | null
  reason_code: string | null
  /** JSON array of strings. */
  questions: string
  /** JSON array of strings, one per question answered. */
  answers: string
  /** SHA-256 (hex) of the public link's token. */
  token_hash: string
  offered_at: number
  responded_at: number | null
  expires_at: number
  /** A user id, or `system:<event type>` for an automatic offer. */
  created_by: string
  created_at: number
  updated_at: number
}

/** A row of survey_settings: one per organization that changed the defaults (no automatic offers). */
export interface SurveySettingsTable {
  organization_id: string
  /** JSON array of survey types. */
  on_ticket_solved: string
  /** JSON object: engagement channel -> array of survey types. */
  on_engagement_closed: string
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    survey_responses: SurveyResponsesTable
    survey_settings: SurveySettingsTable
  }
}
