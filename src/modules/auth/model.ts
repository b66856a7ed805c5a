// Request and response schemas of the authentication endpoints.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'

/** `refresh_cookie` on login, MFA verify and refresh: the refresh token goes into an HttpOnly cookie. */
export const RefreshCookieFlag = t.Optional(
  t.Boolean({
    description:
      'For browser clients: the refresh token is set as an HttpOnly, SameSite=Strict cookie sent only to POST /api/v1/auth/refresh, and left out of the answer',
  }),
)

export const RefreshBody = t.Object(
  {
    refresh_token: t.Optional(
      t.String({ minLength: 1, maxLength: 512, description: 'Absent: the refresh cookie is used (asked with refresh_cookie on sign-in)' }),
    ),
    refresh_cookie: RefreshCookieFlag,
  },
  { examples: [{ refresh_token: 'rt_3J8kQ2vN5xW7yZ1aB4cD6eF8gH0iK2mP' }, { refresh_cookie: true }] },
)
export const TokenResponse = t.Object(
  {
    access_token: t.String({ description: 'JWT, RS256' }),
    refresh_token: t.Optional(
      t.String({ description: 'Opaque; single use: each refresh returns a new one. Absent when it was set as the refresh cookie' }),
    ),
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
    mfa_enrollment_required: t.Optional(
      t.Literal(true, {
        description:
          'The organization requires MFA and you have none: these tokens reach only the MFA enrollment endpoints; enroll, then sign in again',
      }),
    ),
  },
  {
    title: 'Tokens',
    examples: [
      {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleV8xIn0.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl',
        refresh_token: 'rt_3J8kQ2vN5xW7yZ1aB4cD6eF8gH0iK2mP',
        token_type: 'Bearer',
        expires_in: 900,
        user: {
          id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
          email: 'ada@example.com',
          name: 'Ada Agent',
          organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QA',
          role: 'agent',
          permissions: ['ticket:read', 'ticket:create'],
        },
      },
    ],
  },
)

export const SessionIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const SessionListQuery = t.Object({
  user_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'Another user of your organization (needs session:read)' })),
  ...pagingQuery(['created_at']),
})

export const SessionItem = t.Object(
  {
    id: t.String({ examples: ['ses_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    user_id: t.String(),
    current: t.Boolean({ description: 'The session of the access token making this request' }),
    ip: t.Union([t.String(), t.Null()]),
    user_agent: t.Union([t.String(), t.Null()]),
    auth_methods: t.Array(t.String(), { description: 'How the user signed in (RFC 8176 amr): pwd, otp, sms, mfa' }),
    mfa_enrollment_only: t.Boolean(),
    created_at: t.String({ format: 'date-time' }),
    last_seen_at: t.String({ format: 'date-time' }),
    expires_at: t.String({ format: 'date-time', description: 'When its refresh token expires, unless used before' }),
  },
  {
    title: 'Session',
    examples: [
      {
        id: 'ses_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        user_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        current: true,
        ip: '203.0.113.7',
        user_agent: 'Mozilla/5.0',
        auth_methods: ['pwd', 'otp', 'mfa'],
        mfa_enrollment_only: false,
        created_at: '2026-01-15T09:30:00.000Z',
        last_seen_at: '2026-01-15T10:02:00.000Z',
        expires_at: '2026-02-14T09:30:00.000Z',
      },
    ],
  },
)

export const SessionList = listResponse('sessions', SessionItem)
