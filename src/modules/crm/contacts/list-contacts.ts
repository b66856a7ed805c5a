// listContacts: the organization's live contacts, filtered (account, owner, type, tag, blocked, creation
// window) and searched (`q`) before keyset pagination.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../../db/list.ts'
import { timeFilter } from '../fields.ts'
import type { ContactType } from '../table.ts'
import { contactJson } from './contact-json.ts'
import { CONTACT_LIST, contactConditions } from './store.ts'

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

export async function listContacts(ctx: Ctx<UserActor>, input: { filters: ContactFilters; request: ListRequest }) {
  const { filters } = input
  const where = contactFilterConditions(filters)
  const page = await CONTACT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...filters },
    where,
  })
  return listBody('contacts', page, contactJson)
}
