// Request and response schemas of the organization security settings.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { oneOf } from '../../http/schema.ts'
import { MAX_ALLOWLIST_ENTRIES } from './allowlist.ts'
import { SESSION_LIMIT_POLICIES } from './table.ts'

// No maxLength on an entry: an overlong one is a bad entry like any other, refused by checkAllowlist in
// the same 400 that names every bad entry (a schema error would hide the others). The body limit bounds it.
const AllowedIps = t.Array(t.String(), {
  maxItems: MAX_ALLOWLIST_ENTRIES,
  description: 'IPv4 or IPv6 addresses and CIDR ranges; empty: every address is allowed',
  examples: [['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']],
})

export const SecurityBody = t.Object(
  {
    allowed_ips: AllowedIps,
    max_concurrent_sessions: t.Union([Type.Integer({ minimum: 1 }), t.Null()], {
      description: 'Live sessions a user may hold at once; null: unlimited',
    }),
    session_limit_policy: oneOf(SESSION_LIMIT_POLICIES, {
      description: 'At the limit: deny_new refuses the login (403 SESSION_LIMIT_REACHED), evict_oldest ends the oldest session',
    }),
    mfa_required: t.Boolean({ description: 'Users without MFA get tokens for the MFA enrollment endpoints only' }),
  },
  {
    title: 'OrganizationSecurity',
    examples: [
      { allowed_ips: ['203.0.113.7', '10.0.0.0/8'], max_concurrent_sessions: 5, session_limit_policy: 'evict_oldest', mfa_required: true },
    ],
  },
)

export const UpdateSecurityBody = t.Object(
  {
    allowed_ips: t.Optional(AllowedIps),
    // Type.Integer, not t.Integer: a body takes the number 2, not the string "2".
    max_concurrent_sessions: t.Optional(t.Union([Type.Integer({ minimum: 1, maximum: 1000 }), t.Null()])),
    session_limit_policy: t.Optional(oneOf(SESSION_LIMIT_POLICIES)),
    mfa_required: t.Optional(t.Boolean()),
    force: t.Optional(t.Boolean({ description: 'Apply an allowlist that does not include your own address (you will be locked out)' })),
  },
  { minProperties: 1, examples: [{ allowed_ips: ['203.0.113.7', '10.0.0.0/8'], mfa_required: true }] },
)
