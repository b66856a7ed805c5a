// The HTTP layer of the CRM's contacts: routes under /api/v1/contacts.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function contactsRoutes(_app: AppContext) {
  return new Elysia()
}
