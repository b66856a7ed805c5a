// listOAuthClients and getOAuthClient: the organization's clients, newest first and paginated like every list, or one of them.
import type { Ctx, UserActor } from '../../context.ts'
import { type ListRequest, listBody } from '../../db/list.ts'
import { oauthClientJson } from './client-json.ts'
import { getClientInOrg, OAUTH_CLIENT_LIST, type OAuthClientRow } from './store.ts'

export async function listOAuthClients(ctx: Ctx<UserActor>, input: { request: ListRequest }) {
  const page = await OAUTH_CLIENT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: {},
  })
  return listBody('oauth_clients', page, oauthClientJson)
}

export function getOAuthClient(ctx: Ctx<UserActor>, input: { id: string }): Promise<OAuthClientRow> {
  return getClientInOrg(ctx.db, ctx.actor.organizationId, input.id)
}
