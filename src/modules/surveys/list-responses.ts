// listSurveyResponses: the organization's survey responses, filtered before keyset pagination (type,
// subject, status, agent, team, channel, score range, offer and response windows), newest offer first.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../db/list.ts'
import { validationError } from '../../errors.ts'
import { responseJson } from './response-json.ts'
import { SURVEY_LIST } from './store.ts'

export interface SurveyFilters {
  survey_type?: string
  subject_type?: string
  subject_id?: string
  status?: string
  agent_id?: string
  team?: string
  channel?: string
  score_min?: number
  score_max?: number
}

export interface SurveyListFilters extends SurveyFilters {
  offered_after?: string
  offered_before?: string
  responded_after?: string
  responded_before?: string
}

const EQUAL = ['survey_type', 'subject_type', 'subject_id', 'status', 'agent_id', 'team', 'channel'] as const

const TIME_FILTERS = {
  offered_after: 'offered_at > ?',
  offered_before: 'offered_at < ?',
  responded_after: 'responded_at > ?',
  responded_before: 'responded_at < ?',
} as const

export function surveyFilterConditions(filters: SurveyFilters): Condition[] {
  const where: Condition[] = []
  for (const field of EQUAL) {
    const value = filters[field]
    if (value !== undefined) where.push({ sql: `${field} = ?`, params: [field === 'team' ? value.trim() : value] })
  }
  if (filters.score_min !== undefined && filters.score_max !== undefined && filters.score_min > filters.score_max)
    throw validationError([{ field: 'score_min', message: 'must not be greater than score_max' }])
  if (filters.score_min !== undefined) where.push({ sql: 'score >= ?', params: [filters.score_min] })
  if (filters.score_max !== undefined) where.push({ sql: 'score <= ?', params: [filters.score_max] })
  return where
}

export async function listSurveyResponses(ctx: Ctx<UserActor>, input: { filters: SurveyListFilters; request: ListRequest }) {
  const where = [...surveyFilterConditions(input.filters), ...timeWindowConditions(input.filters, TIME_FILTERS)]
  const page = await SURVEY_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where,
  })
  return listBody('survey_responses', page, responseJson)
}
