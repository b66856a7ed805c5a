// listApiKeys: the caller's API keys that are not revoked (expired ones included, marked), newest first.
import type { Ctx, UserActor } from '../../context.ts'
import type { ListRequest, Page } from '../../db/list.ts'
import { API_KEY_LIST, type ApiKeyRow } from './store.ts'

export async function listApiKeys(ctx: Ctx<UserActor>, request: ListRequest): Promise<Page<ApiKeyRow>> {
  const { actor } = ctx
  return API_KEY_LIST.page(ctx.db, ctx.pageTokens, request, {
    organizationId: actor.organizationId,
    filters: { user_id: actor.userId },
    where: [
      { sql: 'api_keys.user_id = ?', params: [actor.userId] },
      { sql: 'api_keys.revoked_at IS NULL', params: [] },
    ],
  })
}
