// The calls module's public entry (issue 17): its routes under /api/v1, its cron tasks, and what other
// modules use of it.
import { Elysia } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { StreamedBody } from '../../http/body.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'

export function callsRoutes(_app: AppContext) {
  return new Elysia()
}

/** The routes of this module that read their bodies as streams, with their own types and caps. */
export function callsStreamedBodies(_config: Config): StreamedBody[] {
  return []
}

/** This module's cron tasks. */
export function callsTasks(_app: AppContext): TaskDefinition[] {
  return []
}
