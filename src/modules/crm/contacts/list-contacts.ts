// listContacts: the organization's live contacts, filtered (account, owner, type, tag, blocked, creation
// window) and searched (`q`) before keyset pagination.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../../db/list.ts'
import { timeFilter } from '../fields.ts'
import type { ContactType } from '../table.ts'
import { contactJson } from './contact-json.ts'
import { CONTACT_LIST, candidatesCondition, contactConditions, searchCandidates } from './store.ts'

export interface ContactFilters {
  /** An account id, or "none" for contacts without one. */
  account_id?: string
  /** A user id, or "none" for contacts nobody owns. */
  owner_id?: string
  contact_type?: ContactType
  tag?: string
  blocked?: boolean
  q?: string
  /** RFC 3339 times; both exclusive. */
  created_after?: string
  created_before?: string
}

/** The filters' SQL (400 naming a bad time): the list's and the export's. */
export function contactFilterConditions(filters: ContactFilters): Condition[] {
  const q = filters.q?.trim()
  return contactConditions({
    accountId: filters.account_id,
    ownerId: filters.owner_id,
    contactType: filters.contact_type,
    tag: filters.tag?.trim().toLowerCase(),
    blocked: filters.blocked,
    q: q === '' ? undefined : q,
    createdAfter: timeFilter('created_after', filters.created_after),
    createdBefore: timeFilter('created_before', filters.created_before),
  })
}

/**
 * The list's scope: the filters' conditions and, for a search with few candidates, those candidates by
 * id (store.ts's searchCandidates), which the list then looks up rather than walk its sort for.
 */
export async function contactScope(
  ctx: Ctx<UserActor>,
  filters: ContactFilters,
  where: Condition[] = contactFilterConditions(filters),
): Promise<{ organizationId: string; where: Condition[]; fewRows: boolean }> {
  const { organizationId } = ctx.actor
  const q = filters.q?.trim()
  const candidates = q ? await searchCandidates(ctx.db, organizationId, q) : undefined
  if (!candidates) return { organizationId, where, fewRows: false }
  return { organizationId, where: [...where, candidatesCondition(candidates)], fewRows: true }
}

export async function listContacts(ctx: Ctx<UserActor>, input: { filters: ContactFilters; request: ListRequest }) {
  const { filters } = input
  const page = await CONTACT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    ...(await contactScope(ctx, filters)),
    filters: { ...filters },
  })
  return listBody('contacts', page, contactJson)
}
