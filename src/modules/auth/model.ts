// Request and response schemas of the authentication endpoints.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password.ts'

// No format check on login: a malformed e-mail is simply wrong credentials.
export const LoginBody = t.Object({ email: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }) })
export const RefreshBody = t.Object({ refresh_token: t.String({ minLength: 1, maxLength: 512 }) })
export const ChangePasswordBody = t.Object({
  current_password: t.String({ maxLength: 1024 }),
  new_password: t.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
})

export const TokenResponse = t.Object({
  access_token: t.String({ description: 'JWT, RS256' }),
  refresh_token: t.String({ description: 'Opaque; single use: each refresh returns a new one' }),
  token_type: t.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
  user: t.Object({
    id: t.String(),
    email: t.String(),
    name: t.String(),
    organization_id: t.String(),
    role: t.String(),
    permissions: t.Array(t.String()),
  }),
})
