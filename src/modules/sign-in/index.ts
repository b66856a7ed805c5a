// The sign-in module's public entry: signing in with e-mail and password (POST /api/v1/auth/login:
// tokens, or an MFA challenge the mfa module finishes) and changing the password (POST /api/v1/auth/password).
// Above auth (sessions and tokens) and mfa (second factors), which both stay unaware of it.
export { type CredentialCheck, checkCredentials } from './check-credentials.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { errorResponses } from '../../http/problem.ts'
import { chargeLogin } from '../../http/rate-limit.ts'
import { requestMeta } from '../../http/request-meta.ts'
import { deliverTokens } from '../auth/index.ts'
import { LoginResult } from '../mfa/index.ts'
import { changePassword } from './change-password.ts'
import { login } from './login.ts'
import { ChangePasswordBody, LoginBody } from './model.ts'

export function signInRoutes(app: AppContext) {
  const meta = (c: Parameters<typeof requestMeta>[0]) => requestMeta(c, app.config.trustedProxies)
  return new Elysia({ prefix: '/api/v1/auth' })
    .use(authMacros(app))
    .post(
      '/login',
      async (c) => {
        c.set.headers['cache-control'] = 'no-store'
        // Before the password is hashed: a refused attempt costs the server nothing.
        await chargeLogin(app, c, c.body.email)
        const result = await login(app, { email: c.body.email, password: c.body.password, request: meta(c) })
        return 'access_token' in result ? deliverTokens(app.config, c.request, c.set.headers, result, c.body.refresh_cookie) : result
      },
      {
        body: LoginBody,
        response: {
          200: LoginResult,
          ...errorResponses('VALIDATION_FAILED', 'INVALID_CREDENTIALS', 'IP_NOT_ALLOWED', 'SESSION_LIMIT_REACHED', 'RATE_LIMITED'),
        },
        detail: {
          tags: ['Auth'],
          operationId: 'login',
          summary: 'Sign in with e-mail and password',
          description:
            'Returns tokens, or, when the user has MFA on, `{mfa_required, mfa_token, mfa_methods}` to finish with POST /api/v1/auth/mfa/verify.',
        },
      },
    )
    .post(
      '/password',
      async ({ ctx, body, set }) => {
        await changePassword(ctx, body)
        set.status = 204
      },
      {
        session: 'full',
        body: ChangePasswordBody,
        response: { 204: t.Void({ description: 'Changed' }), ...protectedErrors('VALIDATION_FAILED') },
        detail: {
          tags: ['Auth'],
          operationId: 'changePassword',
          summary: 'Change your password',
          description: 'Every other session of the user ends.',
        },
      },
    )
}
