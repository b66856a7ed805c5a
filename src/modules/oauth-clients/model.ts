// Request and response schemas of the OAuth client endpoints.
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { MAX_URI_LENGTH } from './redirect-uri.ts'
import { ALL_SCOPES, GRANT_TYPES } from './scopes.ts'

const name = t.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Shown to users on the consent page' })
const uris = (description: string) => t.Array(t.String({ minLength: 1, maxLength: MAX_URI_LENGTH }), { maxItems: 20, description })
const redirectUris = uris(
  'Absolute, no fragment; https, or http on loopback (127.0.0.1, [::1], localhost: any port at authorization time); public clients may use a private-use scheme such as com.example.app:/cb. Compared as exact strings.',
)
const logoutUris = uris('Where RP-initiated logout may send the browser back; the same rules as redirect_uris')
const grantTypes = t.Array(t.String({ maxLength: 40 }), {
  minItems: 1,
  maxItems: GRANT_TYPES.length,
  description: `Of ${GRANT_TYPES.join(', ')}; client_credentials for confidential clients only; default authorization_code`,
})
const scopes = t.Array(t.String({ maxLength: 64 }), {
  maxItems: ALL_SCOPES.length,
  description: `Of ${ALL_SCOPES.join(' ')}; resource scopes only within your own permissions; default openid profile email`,
})

const EXAMPLE = {
  name: 'Helpdesk dashboard',
  redirect_uris: ['https://dashboard.example.com/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile', 'email', 'offline_access', 'tickets:read'],
}

export const CreateOAuthClientBody = t.Object(
  {
    name,
    client_type: t.Optional(
      t.Union([t.Literal('confidential'), t.Literal('public')], {
        description: 'confidential (default): a server that keeps a secret; public: a SPA or mobile app, without one, always with PKCE',
      }),
    ),
    redirect_uris: t.Optional(redirectUris),
    post_logout_redirect_uris: t.Optional(logoutUris),
    grant_types: t.Optional(grantTypes),
    scopes: t.Optional(scopes),
  },
  { examples: [EXAMPLE] },
)

export const UpdateOAuthClientBody = t.Object(
  {
    name: t.Optional(name),
    redirect_uris: t.Optional(redirectUris),
    post_logout_redirect_uris: t.Optional(logoutUris),
    grant_types: t.Optional(grantTypes),
    scopes: t.Optional(scopes),
  },
  { minProperties: 1, examples: [{ redirect_uris: ['https://dashboard.example.com/callback', 'http://127.0.0.1/callback'] }] },
)

export const OAuthClientBody = t.Object(
  {
    id: t.String({ examples: ['ocl_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    client_id: t.String({ description: 'The OAuth client_id: the same as id' }),
    name: t.String(),
    client_type: t.Union([t.Literal('confidential'), t.Literal('public')]),
    redirect_uris: t.Array(t.String()),
    post_logout_redirect_uris: t.Array(t.String()),
    grant_types: t.Array(t.String()),
    scopes: t.Array(t.String()),
    secret_hint: t.Union([t.String(), t.Null()], { description: "The secret's last 4 characters; null for a public client" }),
    created_by: t.Union([t.String(), t.Null()], { description: 'The user who registered it; null: the operator (CLI)' }),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    secret_rotated_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  },
  {
    title: 'OAuthClient',
    examples: [
      {
        id: 'ocl_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        client_id: 'ocl_01KAX3M6W9P8T2V5G7H4J3C1QZ',
        client_type: 'confidential',
        post_logout_redirect_uris: [],
        ...EXAMPLE,
        secret_hint: 'x3Qf',
        created_by: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QA',
        created_at: '2026-01-15T09:30:00.000Z',
        updated_at: '2026-01-15T09:30:00.000Z',
        secret_rotated_at: null,
      },
    ],
  },
)

export const OAuthClientWithSecret = t.Object({
  ...OAuthClientBody.properties,
  client_secret: t.Union([t.String(), t.Null()], {
    description: 'ocs_…: shown this once, never again (only its SHA-256 is kept); null for a public client',
  }),
})

export const OAuthClientIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const OAuthClientListQuery = t.Object({ ...pagingQuery(['created_at']) })
export const OAuthClientList = listResponse('oauth_clients', OAuthClientBody)
