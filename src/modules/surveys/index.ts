// The surveys module's public entry (issue 19): survey responses (CSAT, NPS, CES), offered by hand or
// when a ticket is solved or a session closed (an event subscriber), answered through a one-time public
// link (/s/{token}), listed with metrics; and the cron task that expires unanswered offers
// (placeholder until built).
import { Elysia } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import type { EventSubscriber } from '../../ports.ts'

export function surveysRoutes(_app: AppContext) {
  return new Elysia()
}

/** Offers the organization's automatic surveys in the transaction of the event that calls for them. */
export function surveyOffersSubscriber(_config: Config): EventSubscriber {
  return async () => {}
}

/** This module's cron tasks. */
export function surveysTasks(_app: AppContext): TaskDefinition[] {
  return []
}
