// Routes of the auth module under /api/v1/auth: login, refresh, logout, password change, sessions.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { chargeLogin } from '../../http/rate-limit.ts'
import { errorResponses } from '../../http/problem.ts'
import { requestMeta } from '../../http/request-meta.ts'
import { LoginResult } from '../mfa/model.ts'
import { changePassword } from './change-password.ts'
import { endSession } from './end-session.ts'
import { listSessions } from './list-sessions.ts'
import { login } from './login.ts'
import { logout } from './logout.ts'
import { ChangePasswordBody, LoginBody, RefreshBody, SessionIdParams, SessionList, SessionListQuery, TokenResponse } from './model.ts'
import { refresh } from './refresh.ts'

export function authRoutes(deps: AppDeps) {
  const meta = (ctx: Parameters<typeof requestMeta>[0]) => requestMeta(ctx, deps.config.trustedProxies)
  return new Elysia({ prefix: '/api/v1/auth' })
    .use(authMacros(deps))
    .post(
      '/login',
      async (ctx) => {
        ctx.set.headers['cache-control'] = 'no-store'
        // Before the password is hashed: a refused attempt costs the server nothing.
        chargeLogin(deps, ctx, ctx.body.email)
        return login(deps, ctx.body, meta(ctx))
      },
      {
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses('VALIDATION_FAILED', 'INVALID_CREDENTIALS', 'IP_NOT_ALLOWED', 'SESSION_LIMIT_REACHED', 'RATE_LIMITED') },
        detail: {
          tags: ['Auth'],
          operationId: 'login', summary: 'Sign in with e-mail and password',
          description: 'Returns tokens, or, when the user has MFA on, `{mfa_required, mfa_token, mfa_methods}` to finish with POST /api/v1/auth/mfa/verify.',
        },
      },
    )
    .post(
      '/refresh',
      async (ctx) => {
        ctx.set.headers['cache-control'] = 'no-store'
        return refresh(deps, ctx.body.refresh_token, meta(ctx))
      },
      {
        body: RefreshBody,
        response: { 200: TokenResponse, ...errorResponses('VALIDATION_FAILED', 'TOKEN_INVALID', 'IP_NOT_ALLOWED', 'RATE_LIMITED') },
        detail: {
          tags: ['Auth'],
          operationId: 'refreshTokens', summary: 'Exchange a refresh token for new tokens',
          description: 'The refresh token is rotated: the one sent is used up. Sending a used one again ends the whole session.',
        },
      },
    )
    .post(
      '/logout',
      ({ actor, set }) => {
        logout(deps, actor)
        set.status = 204
      },
      {
        session: 'mfa_enrollment',
        response: { 204: t.Void({ description: 'Signed out' }), ...protectedErrors() },
        detail: { tags: ['Auth'], operationId: 'logout', summary: 'Sign out', description: 'Revokes the access token sent and ends its session, refresh token included.' },
      },
    )
    .post(
      '/password',
      async ({ actor, body, set }) => {
        await changePassword(deps, actor, body)
        set.status = 204
      },
      {
        session: 'full',
        body: ChangePasswordBody,
        response: { 204: t.Void({ description: 'Changed' }), ...protectedErrors('VALIDATION_FAILED') },
        detail: { tags: ['Auth'], operationId: 'changePassword', summary: 'Change your password', description: 'Every other session of the user ends.' },
      },
    )
    // Sessions are credentials: managed with a sign-in, never with a personal access token.
    .get('/sessions', ({ actor, query }) => listSessions(deps, actor, query.user_id, listRequest(query)), {
      session: 'full',
      query: SessionListQuery,
      response: { 200: SessionList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'NOT_FOUND') },
      detail: {
        tags: ['Sessions'],
        operationId: 'listSessions', summary: 'List live sessions',
        description: 'Your own, or with `user_id` (and the `session:read` permission) those of a user of your organization. Newest first; `last_seen_at` is exact to the minute.',
      },
    })
    .delete(
      '/sessions/:id',
      ({ actor, params, set }) => {
        endSession(deps, actor, params.id)
        set.status = 204
      },
      {
        session: 'full',
        params: SessionIdParams,
        response: { 204: t.Void({ description: 'Ended' }), ...protectedErrors('NOT_FOUND') },
        detail: {
          tags: ['Sessions'],
          operationId: 'endSession', summary: 'End a session',
          description: 'Its refresh token stops working and its access tokens are refused at once. Ending another user\'s session needs `session:delete`.',
        },
      },
    )
}
