// Authentication and authorization macros for routes: `auth: true` needs a valid access token,
// `permission: 'ticket:read'` also needs that permission. Both resolve `actor` (one shape, elysia#1891).
import { Elysia } from 'elysia'
import type { AppDeps, UserActor } from '../context.ts'
import { AppError, type ErrorCode } from '../errors.ts'
import { hasPermission } from '../modules/access/match.ts'
import type { Permission } from '../modules/access/permissions.ts'
import { authenticate } from '../modules/auth/authenticate.ts'
import { errorResponses } from './problem.ts'

const security = [{ bearerAuth: [] }]

export function requirePermission(actor: UserActor, permission: Permission): void {
  if (!hasPermission(actor.grants, permission)) throw new AppError('INSUFFICIENT_PERMISSIONS', `This operation requires the ${permission} permission`)
}

export function authMacros(deps: AppDeps) {
  return new Elysia().macro({
    // Synchronous on purpose: an async resolve makes every authenticated request await.
    auth: {
      resolve({ request }) {
        return { actor: authenticate(deps, request) }
      },
      detail: { security },
    },
    permission: (permission: Permission) => ({
      resolve({ request }) {
        const actor = authenticate(deps, request)
        requirePermission(actor, permission)
        return { actor }
      },
      detail: { security, description: `Requires the \`${permission}\` permission.` },
    }),
  })
}

/** Error responses of an authenticated route, plus the route's own codes. */
export function protectedErrors(...codes: ErrorCode[]) {
  return errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'INSUFFICIENT_PERMISSIONS', ...codes)
}
