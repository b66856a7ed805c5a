// The api-keys module's public entry: its routes under /api/v1/api-keys (create, shown once; list and
// revoke your own), and authenticating a personal access token, which the auth module calls.
// The pure re-exports come first: modules that import them through this file may load while the
// routes' own imports (http/auth.ts) are still loading.
export { authenticateApiKey } from './authenticate-key.ts'
export {
  isWellFormedPersonalAccessToken,
  looksLikePersonalAccessToken,
  newPersonalAccessToken,
  PAT_PREFIX,
} from '../../lib/personal-access-token.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { listBody } from '../../db/list.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createApiKey } from './create-key.ts'
import { apiKeyJson } from './key-json.ts'
import { listApiKeys } from './list-keys.ts'
import { ApiKeyIdParams, ApiKeyList, ApiKeyListQuery, CreateApiKeyBody, CreatedApiKeyBody } from './model.ts'
import { revokeApiKey } from './revoke-key.ts'

const tags = ['API keys']

export function apiKeysRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/api-keys' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        const { row, token } = await createApiKey(ctx, body)
        set.status = 201
        set.headers['cache-control'] = 'no-store'
        return { ...apiKeyJson(row, Number(row.created_at)), token }
      },
      {
        permission: 'api_key:create',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeyBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createApiKey',
          summary: 'Create a personal access token',
          description:
            'The token is in the response once and never again (only its SHA-256 is kept). Needs a sign-in: a personal access token cannot create another.',
        },
      },
    )
    .get(
      '',
      async ({ ctx, query }) => {
        const page = await listApiKeys(ctx, listRequest(query))
        const now = ctx.clock.now()
        return listBody('api_keys', page, (row) => apiKeyJson(row, now))
      },
      {
        permission: 'api_key:read',
        query: ApiKeyListQuery,
        response: { 200: ApiKeyList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listApiKeys',
          summary: 'List your personal access tokens',
          description: 'Not revoked ones, newest first; never the token itself.',
        },
      },
    )
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await revokeApiKey(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'api_key:delete',
        params: ApiKeyIdParams,
        response: { 204: t.Void({ description: 'Revoked' }), ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'revokeApiKey', summary: 'Revoke a personal access token', description: 'It stops working at once.' },
      },
    )
}
