// Authentication and authorization macros for routes. `auth: true` needs a valid credential (access
// token or personal access token); `permission: 'ticket:read'` also needs that permission;
// `session: 'full' | 'mfa_enrollment'` needs the access token of a sign-in (never a personal access
// token), 'mfa_enrollment' also accepting the restricted tokens of a user who must enroll in MFA first.
// Each resolves `actor` (one shape per macro, elysia#1891).
import { Elysia } from 'elysia'
import type { AppDeps, UserActor } from '../context.ts'
import { AppError, type ErrorCode } from '../errors.ts'
import type { Permission } from '../modules/access/permissions.ts'
import { requirePermission, requireSession } from '../modules/access/require.ts'
import { authenticate } from '../modules/auth/authenticate.ts'
import { errorResponses } from './problem.ts'
import { chargeUser } from './rate-limit.ts'
import { requestMeta, type MetaContext } from './request-meta.ts'

const security: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyAuth: [] }]
const sessionSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }]

export { requirePermission, requireSession }

/** DESIGN.md's order: authenticate (with the IP allowlist), then rate limits, then the permission check. */
function authenticated(deps: AppDeps, ctx: MetaContext & { route: string }, allowEnrollmentOnly = false): UserActor {
  const actor = authenticate(deps, ctx.request, requestMeta(ctx, deps.config.trustedProxies))
  chargeUser(deps, ctx, actor)
  if (!allowEnrollmentOnly && actor.credential.type === 'session' && actor.credential.mfaEnrollmentOnly) throw new AppError('MFA_ENROLLMENT_REQUIRED')
  return actor
}

export function authMacros(deps: AppDeps) {
  return new Elysia().macro({
    // Synchronous on purpose: an async resolve makes every authenticated request await.
    auth: {
      resolve(ctx) {
        return { actor: authenticated(deps, ctx) }
      },
      detail: { security },
    },
    permission: (permission: Permission) => ({
      resolve(ctx) {
        const actor = authenticated(deps, ctx)
        requirePermission(actor, permission)
        return { actor }
      },
      detail: { security, description: `Requires the \`${permission}\` permission.` },
    }),
    session: (mode: 'full' | 'mfa_enrollment') => ({
      resolve(ctx) {
        return { actor: requireSession(authenticated(deps, ctx, mode === 'mfa_enrollment')) }
      },
      detail: { security: sessionSecurity },
    }),
  })
}

/** Error responses of an authenticated route, plus the route's own codes. */
export function protectedErrors(...codes: ErrorCode[]) {
  return errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'INSUFFICIENT_PERMISSIONS', 'IP_NOT_ALLOWED', 'MFA_ENROLLMENT_REQUIRED', 'RATE_LIMITED', ...codes)
}
