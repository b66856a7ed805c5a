// The browser side of the authorization server: /oauth2/auth, its sign-in, MFA and consent pages, and RP-initiated logout.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function authorizeRoutes(_app: AppContext) {
  return new Elysia()
}
