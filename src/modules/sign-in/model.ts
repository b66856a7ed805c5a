// Request schemas of signing in with a password and changing it.
import { t } from 'elysia'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../lib/password.ts'
import { RefreshCookieFlag } from '../auth/index.ts'

// No format check on login: a malformed e-mail is simply wrong credentials.
export const LoginBody = t.Object(
  { email: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }), refresh_cookie: RefreshCookieFlag },
  { examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }] },
)
export const ChangePasswordBody = t.Object(
  {
    current_password: t.String({ maxLength: 1024 }),
    new_password: t.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { examples: [{ current_password: 'correct horse battery staple', new_password: 'a new and longer passphrase' }] },
)
