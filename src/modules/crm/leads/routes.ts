// The HTTP layer of the CRM's leads: routes under /api/v1/leads.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function leadsRoutes(_app: AppContext) {
  return new Elysia()
}
