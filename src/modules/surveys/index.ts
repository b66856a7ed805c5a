// The surveys module's public entry: survey responses (CSAT, NPS, CES), offered by hand or
// when a ticket is solved or a session closed (an event subscriber), answered through a one-time public
// link (/s/{token}), listed with metrics; and the cron task that expires unanswered offers.
export { SURVEY_RESPONSE_EXAMPLE } from './model.ts'
export { surveyOffersSubscriber } from './subscriber.ts'
export { surveyContactReferrer } from './contact-referrer.ts'

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { surveyExpiryTask } from './jobs.ts'
import { publicSurveyRoutes } from './public/routes.ts'
import { surveyApiRoutes } from './routes.ts'

export function surveysRoutes(app: AppContext) {
  return new Elysia().use(surveyApiRoutes(app)).use(publicSurveyRoutes(app))
}

/** This module's cron tasks. */
export function surveysTasks(app: AppContext): TaskDefinition[] {
  return [surveyExpiryTask(app)]
}
