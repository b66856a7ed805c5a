// createApp(app): the composition root. Cross-cutting plugins first (Elysia hooks only reach routes
// registered after them), then every module in one visible list.
import { Elysia } from 'elysia'
import type { AppContext } from './context.ts'
import { apiDocs } from './http/openapi.ts'
import { httpPlatform } from './http/platform.ts'
import { createRouteTable, type RouteTable } from './lib/route-match.ts'
import { accessRoutes } from './modules/access/index.ts'
import { agentsRoutes } from './modules/agents/index.ts'
import { apiKeysRoutes } from './modules/api-keys/index.ts'
import { auditRoutes } from './modules/audit/index.ts'
import { billingRoutes, billingStreamedBodies } from './modules/billing/index.ts'
import { callsRoutes, callsStreamedBodies } from './modules/calls/index.ts'
import { mfaRoutes } from './modules/mfa/index.ts'
import { oauthClientsRoutes } from './modules/oauth-clients/index.ts'
import { oauthRoutes } from './modules/oauth/index.ts'
import { crmRoutes, crmStreamedBodies } from './modules/crm/index.ts'
import { dashboardRoutes } from './modules/dashboard/index.ts'
import { engagementsRoutes } from './modules/engagements/index.ts'
import { eventStreamRoutes } from './modules/event-stream/index.ts'
import { organizationRoutes } from './modules/organizations/index.ts'
import { reportsRoutes } from './modules/reports/index.ts'
import { surveysRoutes } from './modules/surveys/index.ts'
import { authRoutes } from './modules/auth/index.ts'
import { signInRoutes } from './modules/sign-in/index.ts'
import { keysRoutes } from './modules/keys/index.ts'
import { systemRoutes } from './modules/system/index.ts'
import { ticketsRoutes } from './modules/tickets/index.ts'
import { uploadsRoutes, uploadsStreamedBodies } from './modules/uploads/index.ts'
import { usersRoutes } from './modules/users/index.ts'
import { webhooksRoutes } from './modules/webhooks/index.ts'

export function createApp(context: AppContext) {
  // Built on first use, after every module has registered its routes: tells 404 from 405.
  let routeTable: RouteTable | undefined
  // The routes that read their bodies as streams, with their own types and caps (a CSV import, a file, a raw recording).
  const streamed = [
    ...crmStreamedBodies(context.config),
    ...uploadsStreamedBodies(context.config),
    ...callsStreamedBodies(context.config),
    ...billingStreamedBodies(context.config),
  ]
  const app = new Elysia()
    .use(httpPlatform(context, (): RouteTable => (routeTable ??= createRouteTable(app.routes.map(routeEntry))), streamed))
    .use(apiDocs(context.config))
    .use(dashboardRoutes(context))
    .use(systemRoutes(context))
    .use(keysRoutes(context))
    .use(signInRoutes(context))
    .use(authRoutes(context))
    .use(mfaRoutes(context))
    .use(apiKeysRoutes(context))
    .use(usersRoutes(context))
    .use(accessRoutes(context))
    .use(organizationRoutes(context))
    .use(auditRoutes(context))
    .use(ticketsRoutes(context))
    .use(crmRoutes(context))
    .use(uploadsRoutes(context))
    .use(callsRoutes(context))
    .use(agentsRoutes(context))
    .use(billingRoutes(context))
    .use(engagementsRoutes(context))
    .use(surveysRoutes(context))
    .use(reportsRoutes(context))
    .use(eventStreamRoutes(context))
    .use(webhooksRoutes(context))
    .use(oauthClientsRoutes(context))
    .use(oauthRoutes(context))
  return app
}

export type App = ReturnType<typeof createApp>

/** A route as the route table sees it; the auth macros declare OpenAPI security on exactly the routes that need a credential. */
export function routeEntry(route: { method: string; path: string; hooks?: { detail?: { security?: Record<string, unknown>[] } } }) {
  const security = route.hooks?.detail?.security ?? []
  return {
    method: route.method,
    path: route.path,
    authenticated: security.length > 0,
    scheme: security.some((scheme) => 'operatorAuth' in scheme) ? ('operator' as const) : ('user' as const),
  }
}
