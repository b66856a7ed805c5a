// listGrants: the caller's live consents to OAuth clients (of clients that still exist), newest first,
// keyset-paginated, each with its client's name.
import type { Ctx, UserActor } from '../../../context.ts'
import { type ListRequest, listBody } from '../../../db/list.ts'
import { isoTime } from '../../../lib/clock.ts'
import { clientNames } from '../../oauth-clients/index.ts'
import { GRANT_LIST, type GrantRow, liveGrantsOf } from '../store.ts'

function grantJson(row: GrantRow, clientName: string) {
  return {
    id: row.id,
    client_id: row.client_id,
    client_name: clientName,
    scopes: row.scope.split(' ').filter((s) => s !== ''),
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export async function listGrants(ctx: Ctx<UserActor>, input: { request: ListRequest }) {
  const { actor } = ctx
  const page = await GRANT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: actor.organizationId,
    filters: {},
    where: liveGrantsOf(actor.userId),
  })
  const names = await clientNames(ctx.db, actor.organizationId, [...new Set(page.rows.map((r) => r.client_id))])
  return listBody('oauth_grants', page, (row) => grantJson(row, names.get(row.client_id) ?? ''))
}
