// The CRM module's public entry: accounts (companies), contacts (people) and leads, their routes under
// /api/v1, and what other modules use of them.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { accountsRoutes } from './accounts/routes.ts'
import { contactsRoutes } from './contacts/routes.ts'
import { leadsRoutes } from './leads/routes.ts'

export function crmRoutes(app: AppContext) {
  return new Elysia().use(accountsRoutes(app)).use(contactsRoutes(app)).use(leadsRoutes(app))
}
