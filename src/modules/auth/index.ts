// Routes of the auth module: login, refresh, logout and password change under /api/v1/auth.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { clientIp } from '../../http/client-ip.ts'
import { errorResponses } from '../../http/problem.ts'
import { changePassword } from './change-password.ts'
import { login } from './login.ts'
import { logout } from './logout.ts'
import { ChangePasswordBody, LoginBody, RefreshBody, TokenResponse } from './model.ts'
import { refresh } from './refresh.ts'

export function authRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1/auth' })
    .use(authMacros(deps))
    .post(
      '/login',
      async ({ body, request, server, set }) => {
        const meta = {
          ip: clientIp(server?.requestIP(request)?.address, request.headers.get('x-forwarded-for'), deps.config.trustedProxies),
          userAgent: request.headers.get('user-agent')?.slice(0, 512) ?? null,
        }
        const tokens = await login(deps, body, meta)
        set.headers['cache-control'] = 'no-store'
        return tokens
      },
      {
        body: LoginBody,
        response: { 200: TokenResponse, ...errorResponses('VALIDATION_FAILED', 'INVALID_CREDENTIALS') },
        detail: { tags: ['Auth'], summary: 'Sign in with e-mail and password' },
      },
    )
    .post(
      '/refresh',
      async ({ body, set }) => {
        const tokens = await refresh(deps, body.refresh_token)
        set.headers['cache-control'] = 'no-store'
        return tokens
      },
      {
        body: RefreshBody,
        response: { 200: TokenResponse, ...errorResponses('VALIDATION_FAILED', 'TOKEN_INVALID') },
        detail: {
          tags: ['Auth'],
          summary: 'Exchange a refresh token for new tokens',
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
        auth: true,
        response: { 204: t.Void({ description: 'Signed out' }), ...protectedErrors() },
        detail: { tags: ['Auth'], summary: 'Sign out', description: 'Revokes the access token sent and ends its session, refresh token included.' },
      },
    )
    .post(
      '/password',
      async ({ actor, body, set }) => {
        await changePassword(deps, actor, body)
        set.status = 204
      },
      {
        auth: true,
        body: ChangePasswordBody,
        response: { 204: t.Void({ description: 'Changed' }), ...protectedErrors('VALIDATION_FAILED') },
        detail: { tags: ['Auth'], summary: 'Change your password', description: 'Every other session of the user ends.' },
      },
    )
}
