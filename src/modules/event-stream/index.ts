// The event-stream module's public entry (issue 19): GET /api/v1/events/stream, the organization's
// events as Server-Sent Events with Last-Event-ID resume, live on every instance (placeholder until built).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'

export function eventStreamRoutes(_app: AppContext) {
  return new Elysia()
}
