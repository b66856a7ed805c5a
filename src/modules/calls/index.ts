// The calls module's public entry: calls and their lifecycle, call recordings, the
// organization's call settings, and Twilio's voice status callbacks — routes under /api/v1 — and the
// recordings' cron tasks (abandoned processing, retention), and the examples of its objects (the webhooks'
// sample events).
export { CALL_EXAMPLE } from './calls/model.ts'
export { callContactReferrer, callTicketReferrer } from './calls/references.ts'
export { getVisibleCall } from './calls/visibility.ts'
export { RECORDING_EXAMPLE } from './recordings/model.ts'

import { Elysia } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { StreamedBody } from '../../http/body.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { callsRoutes as callRoutes } from './calls/routes.ts'
import { recordingProcessingTask, recordingRetentionTask } from './recordings/jobs.ts'
import { recordingAudioBody, recordingsRoutes } from './recordings/routes.ts'
import { callSettingsRoutes } from './settings/routes.ts'
import { twilioRoutes } from './twilio/routes.ts'

export function callsRoutes(app: AppContext) {
  return new Elysia().use(callRoutes(app)).use(recordingsRoutes(app)).use(callSettingsRoutes(app)).use(twilioRoutes(app))
}

/** The routes of this module that read their bodies as streams: a recording's audio (its JSON form is read as any body). */
export function callsStreamedBodies(config: Pick<Config, 'uploads'>): StreamedBody[] {
  return [recordingAudioBody(config)]
}

/** This module's cron tasks. */
export function callsTasks(app: AppContext): TaskDefinition[] {
  return [recordingProcessingTask(app), recordingRetentionTask(app)]
}
