// The oauth module's public entry: the authorization server's routes (served at AUTH_URL, outside /api/v1).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authorizeRoutes } from './authorize/routes.ts'
import { tokenRoutes } from './token/routes.ts'

export { OAUTH_CLEANUP_INTERVAL_MS, oauthCleanupTask } from './jobs.ts'

export function oauthRoutes(app: AppContext) {
  return new Elysia().use(tokenRoutes(app)).use(authorizeRoutes(app))
}
