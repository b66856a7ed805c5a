// The engagements module's public entry (issue 19): engagement sessions (conversations with a contact
// on a channel), their messages, escalation and routing — routes under /api/v1/engagements — and the
// cron tasks that wake snoozed sessions and close inactive ones (placeholder until built).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'

export function engagementsRoutes(_app: AppContext) {
  return new Elysia()
}

/** This module's cron tasks. */
export function engagementsTasks(_app: AppContext): TaskDefinition[] {
  return []
}
