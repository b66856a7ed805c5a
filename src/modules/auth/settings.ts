// The auth module's settings (assembled by src/config.ts): the issuer and audience of tokens, their lifetimes, the clean-up task.
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, parseUrl, type SettingValues } from '../../lib/settings.ts'

export const ISSUER_SETTINGS = {
  AUTH_URL: Type.String({ 'x-default': 'PUBLIC_URL', description: 'URL of the authorization server: the `iss` of every token.' }),
} satisfies Record<string, TSchema>

export const SETTINGS = {
  API_AUDIENCE: Type.String({
    minLength: 1,
    'x-default': 'PUBLIC_URL',
    description: 'The `aud` claim of access tokens; tokens for another audience are refused.',
  }),
  ACCESS_TOKEN_TTL: Type.Integer({
    minimum: 60,
    maximum: 86_400,
    default: 3600,
    description: 'Access-token lifetime in seconds (60–86400).',
  }),
  REFRESH_TOKEN_TTL: Type.Integer({
    minimum: 300,
    maximum: 31_536_000,
    default: 2_592_000,
    description:
      'Refresh-token lifetime in seconds (300 to one year; default 30 days), at least `ACCESS_TOKEN_TTL` (a session ends with its refresh token). Each refresh issues a new one with a fresh lifetime, but never past `SESSION_MAX_AGE`: it is the longest a session may sit unused.',
  }),
  SESSION_MAX_AGE: Type.Integer({
    minimum: 60,
    maximum: 31_536_000,
    default: 2_592_000,
    description:
      "Absolute lifetime of a session in seconds, counted from the sign-in (60 to one year; default 30 days). Refreshing never extends it: a refresh token expires at the earlier of its own `REFRESH_TOKEN_TTL` and the session's end, an access token never outlives the session, and a refresh after the end answers `401 TOKEN_INVALID`; then the user signs in again.",
  }),
  MFA_TOKEN_TTL: Type.Integer({
    minimum: 60,
    maximum: 900,
    default: 300,
    description:
      'Seconds the `mfa_token` of a login with MFA stays usable (60–900); then `POST /api/v1/auth/mfa/verify` answers `401 TOKEN_INVALID` and the user signs in again.',
  }),
  AUTH_CLEANUP_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description:
      'Seconds between runs of the clean-up cron tasks (1–86400): `auth_cleanup` (expired revocations and refresh tokens), `mfa_cleanup` (stale MFA challenges and text-message records), `oauth_cleanup` and `revocations_prune`. Expiry itself is checked on every request; this only bounds how long dead rows stay in the database.',
  }),
} satisfies Record<string, TSchema>

export interface IssuerSlice {
  readonly authUrl: string
}

export interface AuthSlice {
  readonly apiAudience: string
  readonly accessTokenTtlS: number
  readonly refreshTokenTtlS: number
  /** No token of a session outlives its sign-in by more than this (refresh tokens and access tokens alike). */
  readonly sessionMaxAgeS: number
  readonly mfaTokenTtlS: number
  readonly authCleanupIntervalMs: number
}

/** AUTH_URL, else PUBLIC_URL. */
export function issuerSlice(values: SettingValues, publicUrl: string): IssuerSlice {
  return { authUrl: parseUrl('AUTH_URL', (values.AUTH_URL as string | undefined) ?? publicUrl) }
}

/** A session ends with its refresh token; an access token outliving it would outlive the session too. */
export function checkTokenLifetimes(values: SettingValues): void {
  if ((values.REFRESH_TOKEN_TTL as number) < (values.ACCESS_TOKEN_TTL as number)) {
    throw new ConfigError(`REFRESH_TOKEN_TTL (${values.REFRESH_TOKEN_TTL}) must be at least ACCESS_TOKEN_TTL (${values.ACCESS_TOKEN_TTL})`)
  }
}

/** API_AUDIENCE defaults to `publicUrl` (PUBLIC_URL as checked). */
export function authSlice(values: SettingValues, publicUrl: string): AuthSlice {
  return {
    apiAudience: (values.API_AUDIENCE as string | undefined) ?? publicUrl,
    accessTokenTtlS: values.ACCESS_TOKEN_TTL as number,
    refreshTokenTtlS: values.REFRESH_TOKEN_TTL as number,
    sessionMaxAgeS: values.SESSION_MAX_AGE as number,
    mfaTokenTtlS: values.MFA_TOKEN_TTL as number,
    authCleanupIntervalMs: (values.AUTH_CLEANUP_INTERVAL as number) * 1000,
  }
}
