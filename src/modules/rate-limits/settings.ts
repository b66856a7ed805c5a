// The rate-limits module's settings (assembled by src/config.ts): whether limits apply, the organization budget, the unauthenticated rate.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  RATE_LIMITS_ENABLED: Type.Boolean({
    default: true,
    description:
      '`true` or `false`. `false` turns every request-rate limit off, and with it the `X-RateLimit-*` headers (a private install with trusted clients). See [Rate limits](rate-limits.md#rate-limits).',
  }),
  ORG_LIMIT_FACTOR: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description: "An organization's budget, all its users together, as a multiple of one user's plan rates (1–100).",
  }),
  UNAUTH_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 60,
    description: 'Unauthenticated requests accepted per minute from one client address (an IPv6 /64).',
  }),
} satisfies Record<string, TSchema>

export interface RateLimitsSlice {
  readonly rateLimits: { readonly enabled: boolean; readonly orgLimitFactor: number; readonly unauthPerMinute: number }
}

export function rateLimitsSlice(values: SettingValues): RateLimitsSlice {
  return {
    rateLimits: Object.freeze({
      enabled: values.RATE_LIMITS_ENABLED as boolean,
      orgLimitFactor: values.ORG_LIMIT_FACTOR as number,
      unauthPerMinute: values.UNAUTH_PER_MINUTE as number,
    }),
  }
}
