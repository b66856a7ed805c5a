// The protocol side of the authorization server: discovery, /oauth2/token, /userinfo, revocation and introspection, and the user's grants.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'

export function tokenRoutes(_app: AppContext) {
  return new Elysia()
}
