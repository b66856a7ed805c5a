// The HTTP layer of survey responses: offering (POST /api/v1/surveys, and a new link for an open offer),
// the organization's automatic-offer settings, and the list, one response and the metrics under
// /api/v1/survey-responses.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { getInOrg } from '../../db/get-in-org.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { listSurveyResponses } from './list-responses.ts'
import { surveyMetrics } from './metrics.ts'
import {
  CreateSurveyBody,
  OfferedSurveyBody,
  SurveyIdParams,
  SurveyList,
  SurveyListQuery,
  SurveyMetricsBody,
  SurveyMetricsQuery,
  SurveyResponseBody,
  SurveySettingsBody,
  UpdateSurveySettingsBody,
} from './model.ts'
import { createSurvey, renewSurveyLink } from './offer.ts'
import { responseJson } from './response-json.ts'
import { getSurveySettings, surveySettingsJson, updateSurveySettings } from './survey-settings.ts'

const tags = ['Surveys']
const LIFECYCLE =
  'Lifecycle: offered -> responded (answered through the link; it stays responded when changed within 24 hours), offered -> expired (the cron loop, SURVEY_EXPIRY_HOURS after the offer).'

export function surveyApiRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1' })
    .use(authMacros(app))
    .post(
      '/surveys',
      async ({ ctx, body, set }) => {
        set.status = 201
        const { row, url } = await createSurvey(ctx, body)
        return { response: responseJson(row), url }
      },
      {
        permission: 'survey:create',
        body: CreateSurveyBody,
        response: { 201: OfferedSurveyBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createSurvey',
          summary: 'Offer a survey',
          description: `The subject (a ticket, engagement or call the caller sees by its own module's rule: an agent, its own or unassigned tickets and calls, its own sessions and the queued ones nobody has; 404 otherwise, as for a missing one) gets one survey per type (409 for a second). Its contact, agent, team and channel are captured now. The answer holds the public link (url), shown this once: give it to the contact. Takes no Idempotency-Key (a replay would keep the link). ${LIFECYCLE}`,
        },
      },
    )
    .get('/surveys/settings', async ({ ctx }) => surveySettingsJson(await getSurveySettings(ctx)), {
      permission: 'survey:read',
      response: { 200: SurveySettingsBody, ...protectedErrors() },
      detail: { tags, operationId: 'getSurveySettings', summary: 'Which surveys are offered automatically', description: 'Default: none.' },
    })
    .patch('/surveys/settings', async ({ ctx, body }) => surveySettingsJson(await updateSurveySettings(ctx, body)), {
      permission: 'survey:update',
      body: UpdateSurveySettingsBody,
      response: { 200: SurveySettingsBody, ...protectedErrors('VALIDATION_FAILED') },
      detail: {
        tags,
        operationId: 'updateSurveySettings',
        summary: 'Change which surveys are offered automatically',
        description:
          'on_ticket_solved: the types offered when a ticket becomes solved; on_engagement_closed: per channel, when a session on it closes. Offers are made in the transaction of the event; a subject that has a survey of a type gets no second one. Nothing sends the links: get one with POST /api/v1/surveys/{id}/link.',
      },
    })
    .post(
      '/surveys/:id/link',
      async ({ ctx, params }) => {
        const { row, url } = await renewSurveyLink(ctx, params.id)
        return { response: responseJson(row), url }
      },
      {
        permission: 'survey:create',
        params: SurveyIdParams,
        response: { 200: OfferedSurveyBody, ...protectedErrors('NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'renewSurveyLink',
          summary: "A new public link for an offer (automatic offers' links come from here)",
          description:
            'Only for a survey whose subject the caller sees (as POST /api/v1/surveys; 404 otherwise, as for a missing survey), and only while it is offered (409 once responded or expired). The previous link stops working: only the newest token is kept (as its hash). A POST, not a GET: it changes the offer. Takes no Idempotency-Key (a replay would keep the link).',
        },
      },
    )
    .get(
      '/survey-responses',
      ({ ctx, query }) => {
        const { page_size, page_token, sort, include_total, ...filters } = query
        return listSurveyResponses(ctx, {
          filters,
          request: listRequest({ page_size, page_token, sort: sort ?? 'offered_at:desc', include_total }),
        })
      },
      {
        permission: 'survey:read',
        query: SurveyListQuery,
        response: { 200: t.NoValidate(SurveyList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listSurveyResponses',
          summary: 'List survey responses',
          description: 'Keyset-paginated; sort offered_at (default offered_at:desc).',
        },
      },
    )
    .get('/survey-responses/metrics', ({ ctx, query }) => surveyMetrics(ctx, query), {
      permission: 'survey:read',
      query: SurveyMetricsQuery,
      response: { 200: SurveyMetricsBody, ...protectedErrors('VALIDATION_FAILED') },
      detail: {
        tags,
        operationId: 'getSurveyMetrics',
        summary: 'Survey metrics: CSAT % satisfied, NPS, CES average, response rates',
        description:
          "Over the offers made from the start of `from` to the end of `to` (days in time_zone, IANA, default UTC), with the list's filters. Per type: offered, responded, response_rate (%), and csat.percent_satisfied (scores 4-5, %), nps.nps (% promoters 9-10 minus % detractors 0-6), ces.average. Statistics are numbers rounded to 1 decimal place, null when nothing was answered.",
      },
    })
    .get(
      '/survey-responses/:id',
      async ({ ctx, params }) =>
        responseJson(await getInOrg(ctx.db, 'survey_responses', ctx.actor.organizationId, params.id, 'survey response')),
      {
        permission: 'survey:read',
        params: SurveyIdParams,
        response: { 200: SurveyResponseBody, ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'getSurveyResponse', summary: 'Get a survey response' },
      },
    )
}
