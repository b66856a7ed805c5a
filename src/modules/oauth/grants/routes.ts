// GET/DELETE /api/v1/me/oauth-grants: your consents to OAuth clients. Grants are credentials: managed
// with a sign-in's access token, never with a personal access token or an OAuth client's token.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { listRequest } from '../../../http/list.ts'
import { listGrants } from './list-grants.ts'
import { GrantIdParams, GrantListQuery, OAuthGrantList } from './model.ts'
import { revokeUserGrant } from './revoke-grant.ts'

const tags = ['OAuth grants']

export function grantsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/me/oauth-grants' })
    .use(authMacros(app))
    .get('', ({ ctx, query }) => listGrants(ctx, { request: listRequest(query) }), {
      session: 'full',
      query: GrantListQuery,
      response: { 200: OAuthGrantList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
      detail: {
        tags,
        operationId: 'listOAuthGrants',
        summary: 'List your OAuth grants',
        description: 'The clients you consented to, with the scopes, newest first.',
      },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await revokeUserGrant(ctx, { id: params.id })
        set.status = 204
      },
      {
        session: 'full',
        params: GrantIdParams,
        response: { 204: t.Void({ description: 'Revoked' }), ...protectedErrors('NOT_FOUND') },
        detail: {
          tags,
          operationId: 'revokeOAuthGrant',
          summary: 'Revoke an OAuth grant',
          description: "The client's tokens for you stop working at once (refresh tokens included); it must ask for your consent again.",
        },
      },
    )
}
