// The oauth-clients module's public entry: routes under /api/v1/oauth-clients (register, list, read, change, delete, rotate the secret), and what the authorization server and the CLI use.
// The pure re-exports come first (see access/index.ts).
export { oauthClientJson } from './client-json.ts'
export { createOAuthClient, type NewOAuthClient } from './create-client.ts'
export { redirectUriMatches, redirectUriProblem } from './redirect-uri.ts'
export { clientActingUserId } from './acting-user.ts'
export { ALL_SCOPES, GRANT_TYPES, grantsWithinScopes, OIDC_SCOPES, permissionsOfScopes, RESOURCE_SCOPES } from './scopes.ts'
export { clientSecretMatches } from './secret.ts'
export { clientNames, findClient, getClientInOrg, type OAuthClientRow } from './store.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import { oauthClientJson } from './client-json.ts'
import { createOAuthClient } from './create-client.ts'
import { deleteOAuthClient } from './delete-client.ts'
import { getOAuthClient, listOAuthClients } from './list-clients.ts'
import * as m from './model.ts'
import { rotateOAuthClientSecret } from './rotate-secret.ts'
import { updateOAuthClient } from './update-client.ts'

const tags = ['OAuth clients']
const ONCE = 'The secret is in this response once and never again (only its SHA-256 is kept).'

export function oauthClientsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/oauth-clients' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        const { row, secret } = await createOAuthClient(ctx, body)
        set.status = 201
        set.headers['cache-control'] = 'no-store'
        return { ...oauthClientJson(row), client_secret: secret }
      },
      {
        permission: 'oauth_client:create',
        body: m.CreateOAuthClientBody,
        response: { 201: m.OAuthClientWithSecret, ...protectedErrors('VALIDATION_FAILED', 'LIMIT_REACHED') },
        detail: {
          tags,
          operationId: 'createOAuthClient',
          summary: 'Register an OAuth client',
          description: `A confidential client gets a secret. ${ONCE}`,
        },
      },
    )
    .get('', ({ ctx, query }) => listOAuthClients(ctx, { request: listRequest(query) }), {
      permission: 'oauth_client:read',
      query: m.OAuthClientListQuery,
      response: { 200: m.OAuthClientList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: { tags, operationId: 'listOAuthClients', summary: 'List OAuth clients', description: 'Newest first; never a secret.' },
    })
    .get('/:id', async ({ ctx, params }) => oauthClientJson(await getOAuthClient(ctx, { id: params.id })), {
      permission: 'oauth_client:read',
      params: m.OAuthClientIdParams,
      response: { 200: m.OAuthClientBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getOAuthClient', summary: 'Read an OAuth client' },
    })
    .patch('/:id', async ({ ctx, params, body }) => oauthClientJson(await updateOAuthClient(ctx, { id: params.id, changes: body })), {
      permission: 'oauth_client:update',
      params: m.OAuthClientIdParams,
      body: m.UpdateOAuthClientBody,
      response: { 200: m.OAuthClientBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags,
        operationId: 'updateOAuthClient',
        summary: 'Change an OAuth client',
        description: 'Its type never changes; the result is checked as a whole.',
      },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteOAuthClient(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'oauth_client:delete',
        params: m.OAuthClientIdParams,
        response: { 204: t.Void({ description: 'Deleted' }), ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'deleteOAuthClient', summary: 'Delete an OAuth client' },
      },
    )
    .post(
      '/:id/rotate-secret',
      async ({ ctx, params, set }) => {
        const { row, secret } = await rotateOAuthClientSecret(ctx, { id: params.id })
        set.headers['cache-control'] = 'no-store'
        return { ...oauthClientJson(row), client_secret: secret }
      },
      {
        permission: 'oauth_client:update',
        params: m.OAuthClientIdParams,
        response: { 200: m.OAuthClientWithSecret, ...protectedErrors('NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'rotateOAuthClientSecret',
          summary: "Replace a confidential client's secret",
          description: `The old secret stops working at once. ${ONCE} A public client has none: 409.`,
        },
      },
    )
}
