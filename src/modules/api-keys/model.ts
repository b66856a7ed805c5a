// Request and response schemas of the API key (personal access token) endpoints.
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'

export const CreateApiKeyBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the key is for' }),
    expires_at: t.String({ format: 'date-time', description: 'Required; at most 1 year ahead' }),
    permissions: t.Optional(
      t.Array(t.String({ maxLength: 64 }), {
        minItems: 1,
        maxItems: 100,
        description: 'Narrow the key to these permissions (each one you hold); default: all of yours, as they are at each request',
      }),
    ),
  },
  { examples: [{ name: 'Nightly export', expires_at: '2026-07-01T00:00:00Z', permissions: ['ticket:read'] }] },
)

export const ApiKeyBody = t.Object(
  {
    id: t.String({ examples: ['key_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    name: t.String(),
    prefix: t.String({ description: 'The first characters of the token, to recognise it' }),
    permissions: t.Union([t.Array(t.String()), t.Null()], { description: "null: all of the owner's permissions" }),
    expired: t.Boolean(),
    created_at: t.String({ format: 'date-time' }),
    expires_at: t.String({ format: 'date-time' }),
    last_used_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'Exact to the minute' }),
    last_used_ip: t.Union([t.String(), t.Null()]),
  },
  {
    title: 'ApiKey',
    examples: [
      {
        id: 'key_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        name: 'Nightly export',
        prefix: 'pat_live_3kq9',
        permissions: ['ticket:read'],
        expired: false,
        created_at: '2026-01-15T09:30:00.000Z',
        expires_at: '2026-07-01T00:00:00.000Z',
        last_used_at: null,
        last_used_ip: null,
      },
    ],
  },
)

export const CreatedApiKeyBody = t.Object({
  ...ApiKeyBody.properties,
  token: t.String({ description: 'pat_live_…: shown this once, never again. Send it as X-API-Key or Authorization: Bearer' }),
})

export const ApiKeyIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const ApiKeyListQuery = t.Object({ ...pagingQuery(['created_at']) })
export const ApiKeyList = listResponse('api_keys', ApiKeyBody)
