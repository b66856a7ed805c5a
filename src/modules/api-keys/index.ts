// Routes of personal access tokens under /api/v1/api-keys: create (shown once), list and revoke your own.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors, requireSession } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { createApiKey } from './create-key.ts'
import { listApiKeys } from './list-keys.ts'
import { ApiKeyIdParams, ApiKeyList, ApiKeyListQuery, CreateApiKeyBody, CreatedApiKeyBody } from './model.ts'
import { revokeApiKey } from './revoke-key.ts'

const tags = ['API keys']

export function apiKeysRoutes(deps: AppDeps) {
  return new Elysia({ prefix: '/api/v1/api-keys' })
    .use(authMacros(deps))
    .post(
      '',
      ({ actor, body, set }) => {
        const key = createApiKey(deps, requireSession(actor), body)
        set.status = 201
        set.headers['cache-control'] = 'no-store'
        return key
      },
      {
        permission: 'api_key:create',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeyBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createApiKey', summary: 'Create a personal access token',
          description: 'The token is in the response once and never again (only its SHA-256 is kept). Needs a sign-in: a personal access token cannot create another.',
        },
      },
    )
    .get('', ({ actor, query }) => listApiKeys(deps, actor, listRequest(query)), {
      permission: 'api_key:read',
      query: ApiKeyListQuery,
      response: { 200: ApiKeyList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: { tags, operationId: 'listApiKeys', summary: 'List your personal access tokens', description: 'Not revoked ones, newest first; never the token itself.' },
    })
    .delete(
      '/:id',
      ({ actor, params, set }) => {
        revokeApiKey(deps, requireSession(actor), params.id)
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
