// The auth module's public entry: its routes under /api/v1/auth (login, refresh, logout, password
// change, sessions), authenticating a request, and the sign-in, session and password pieces the other
// modules (mfa, users, api-keys) and the composition root use.
// The pure re-exports come first: modules that import them through this file may load while the
// routes' own imports (http/auth.ts) are still loading.
// Password and schema pieces first of all: users and mfa import them through here while auth's own
// imports (which reach users) are still loading.
export { dummyHash, generatePassword, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from '../../lib/password.ts'
export { RefreshBody, RefreshCookieFlag, TokenResponse } from './model.ts'
export { deliverTokens } from './refresh-cookie.ts'
export type { TokenHolder } from './active-user.ts'
export { authenticate, authenticateAccessToken, tokenHolder } from './authenticate.ts'
export { chargePasswordAttempt } from './attempt-limit.ts'
export { openBrowserSession } from './browser-session.ts'
export { Activity } from './activity.ts'
export { missingCredential, presentedCredential, unauthorized } from '../../credential.ts'
export { AUTH_CLEANUP_INTERVAL_MS, authCleanupTask, revocationsPruneTask } from './jobs.ts'
export { continueSession, openClientSession, openSession, type PendingClientTokens, prepareClientCredentials } from './open-session.ts'
export { type Rotation, rotateRefreshToken, settleRotation } from './refresh.ts'
export { Revocations } from './revocations.ts'
export {
  finishSignIn,
  openSignInSession,
  type SignInOrganization,
  type SignInOutcome,
  type SignInUser,
  tokenUser,
} from './session-start.ts'
export { findRefreshToken, insertRevokedToken, revokeSession, revokeUserSessions, type SessionRow } from './store.ts'
export {
  type ClientClaims,
  hashToken,
  mintTokens,
  type PendingTokens,
  type SessionKind,
  type SessionMeta,
  sessionEnd,
  type TokenSubject,
} from './tokens.ts'
export { USER_SESSIONS } from './user-sessions.ts'
export { type VerifiedClaims, VerifiedTokens } from './verified-tokens.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { listBody } from '../../db/list.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { errorResponses } from '../../http/problem.ts'
import { requestMeta } from '../../http/request-meta.ts'
import { endSession } from './end-session.ts'
import { listSessions, sessionJson } from './list-sessions.ts'
import { logout } from './logout.ts'
import { RefreshBody, SessionIdParams, SessionList, SessionListQuery, TokenResponse } from './model.ts'
import { refresh } from './refresh.ts'
import { checkCookieOrigin, deliverTokens, readRefreshCookie, refreshCookie } from './refresh-cookie.ts'

export function authRoutes(app: AppContext) {
  const meta = (c: Parameters<typeof requestMeta>[0]) => requestMeta(c, app.config.trustedProxies)
  return (
    new Elysia({ prefix: '/api/v1/auth' })
      .use(authMacros(app))
      .post(
        '/refresh',
        async (c) => {
          c.set.headers['cache-control'] = 'no-store'
          const fromCookie = c.body.refresh_token === undefined
          if (fromCookie) checkCookieOrigin(app.config, c.request)
          const refreshToken = c.body.refresh_token ?? readRefreshCookie(app.config, c.request)
          if (refreshToken === undefined) throw new AppError('TOKEN_INVALID', 'No refresh token: send refresh_token, or the refresh cookie')
          const tokens = await refresh(app, { refreshToken, request: meta(c) })
          // A cookie spent is replaced by its successor in the cookie, whatever the body asked.
          return deliverTokens(app.config, c.request, c.set.headers, tokens, fromCookie || c.body.refresh_cookie)
        },
        {
          body: RefreshBody,
          response: {
            200: TokenResponse,
            ...errorResponses('VALIDATION_FAILED', 'TOKEN_INVALID', 'IP_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED', 'RATE_LIMITED'),
          },
          detail: {
            tags: ['Auth'],
            operationId: 'refreshTokens',
            summary: 'Exchange a refresh token for new tokens',
            description:
              'The refresh token is rotated: the one sent is used up. Sending a used one again ends the whole session. Without `refresh_token`, the refresh cookie is spent (only from this server’s own origin) and its successor set in its place.',
          },
        },
      )
      .post(
        '/logout',
        async ({ ctx, set, request }) => {
          await logout(ctx)
          // The refresh cookie, if this browser holds one, is of the session just ended: forget it.
          set.headers['set-cookie'] = refreshCookie(app.config, request, '', 0)
          set.status = 204
        },
        {
          session: 'mfa_enrollment',
          response: { 204: t.Void({ description: 'Signed out' }), ...protectedErrors() },
          detail: {
            tags: ['Auth'],
            operationId: 'logout',
            summary: 'Sign out',
            description: 'Revokes the access token sent and ends its session, refresh token included.',
          },
        },
      )
      // Sessions are credentials: managed with a sign-in, never with a personal access token.
      .get(
        '/sessions',
        async ({ ctx, query }) => {
          const page = await listSessions(ctx, { userId: query.user_id, request: listRequest(query) })
          return listBody('sessions', page, (row) => sessionJson(row, ctx.actor.credential.id))
        },
        {
          session: 'full',
          query: SessionListQuery,
          response: { 200: SessionList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN', 'NOT_FOUND') },
          detail: {
            tags: ['Sessions'],
            operationId: 'listSessions',
            summary: 'List live sessions',
            description:
              'Your own, or with `user_id` (and the `session:read` permission) those of a user of your organization. Newest first; `last_seen_at` is exact to the minute.',
          },
        },
      )
      .delete(
        '/sessions/:id',
        async ({ ctx, params, set }) => {
          await endSession(ctx, { sessionId: params.id })
          set.status = 204
        },
        {
          session: 'full',
          params: SessionIdParams,
          response: { 204: t.Void({ description: 'Ended' }), ...protectedErrors('NOT_FOUND') },
          detail: {
            tags: ['Sessions'],
            operationId: 'endSession',
            summary: 'End a session',
            description:
              "Its refresh token stops working and its access tokens are refused at once. Ending another user's session needs `session:delete`.",
          },
        },
      )
  )
}
