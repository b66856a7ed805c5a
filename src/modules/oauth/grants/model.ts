// Request and response schemas of the user's OAuth grants (GET/DELETE /api/v1/me/oauth-grants).
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'

export const GrantIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const GrantListQuery = t.Object({ ...pagingQuery(['created_at']) })

export const OAuthGrantBody = t.Object(
  {
    id: t.String({ examples: ['ogr_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    client_id: t.String(),
    client_name: t.String({ description: 'The name the consent page showed' }),
    scopes: t.Array(t.String(), { description: 'What you consented to' }),
    created_at: t.String({ format: 'date-time', description: 'When you first consented' }),
    updated_at: t.String({ format: 'date-time', description: 'When you last consented (a wider request asks again)' }),
  },
  {
    title: 'OAuthGrant',
    examples: [
      {
        id: 'ogr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        client_id: 'ocl_01KAX3M6W9P8T2V5G7H4J3C1QA',
        client_name: 'Dashboard',
        scopes: ['openid', 'profile', 'tickets:read'],
        created_at: '2026-01-15T09:30:00.000Z',
        updated_at: '2026-01-15T09:30:00.000Z',
      },
    ],
  },
)

export const OAuthGrantList = listResponse('oauth_grants', OAuthGrantBody)
