// The HTTP layer of the CRM's accounts: routes under /api/v1/accounts.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function accountsRoutes(_app: AppContext) {
  return new Elysia()
}
