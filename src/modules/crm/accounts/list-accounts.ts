// listAccounts: the organization's accounts, filtered (owner, tag, creation window) and searched (`q`:
// prefix of the name or the domain) before keyset pagination.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../../db/list.ts'
import { timeFilter } from '../fields.ts'
import { accountJson } from './account-json.ts'
import { ACCOUNT_LIST, accountConditions } from './store.ts'

export interface AccountFilters {
  /** A user id, or "none" for accounts nobody owns. */
  owner_id?: string
  tag?: string
  q?: string
  /** RFC 3339 times; both exclusive. */
  created_after?: string
  created_before?: string
}

/** The filters' SQL (400 naming a bad time): the list's and the export's. */
export function accountFilterConditions(filters: AccountFilters): Condition[] {
  const q = filters.q?.trim()
  return accountConditions({
    ownerId: filters.owner_id,
    tag: filters.tag?.trim().toLowerCase(),
    q: q === '' ? undefined : q,
    createdAfter: timeFilter('created_after', filters.created_after),
    createdBefore: timeFilter('created_before', filters.created_before),
  })
}

export async function listAccounts(ctx: Ctx<UserActor>, input: { filters: AccountFilters; request: ListRequest }) {
  const { filters } = input
  const where = accountFilterConditions(filters)
  const page = await ACCOUNT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...filters },
    where,
  })
  return listBody('accounts', page, accountJson)
}
