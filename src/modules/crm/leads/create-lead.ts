// createLead: a new lead (status new unless given; never converted), audited as lead.created.
import type { Ctx, UserActor } from '../../../context.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { auditLead } from './audit.ts'
import { assertMayGive, assertOwner, e164, normalizeEmail, trimmedOrNull } from './fields.ts'
import type { INITIAL_LEAD_STATUSES } from './lifecycle.ts'
import { insertLead, type LeadRow } from './store.ts'

export interface NewLead {
  name: string
  email?: string | null
  phone?: string | null
  company_name?: string | null
  source?: string | null
  score?: number
  status?: (typeof INITIAL_LEAD_STATUSES)[number]
  owner_id?: string | null
}

export async function createLead(ctx: Ctx<UserActor>, input: NewLead): Promise<LeadRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const ownerId = input.owner_id ?? null
  assertMayGive(actor, ownerId)
  const name = input.name.trim()
  const row: LeadRow = {
    id: prefixedId('lea'),
    organization_id: actor.organizationId,
    name,
    name_key: searchKey(name),
    email: input.email ? normalizeEmail(input.email) : null,
    phone: input.phone ? e164(input.phone) : null,
    company_name: trimmedOrNull(input.company_name ?? null),
    source: trimmedOrNull(input.source ?? null),
    score: input.score ?? 0,
    status: input.status ?? 'new',
    owner_id: ownerId,
    converted_at: null,
    converted_contact_id: null,
    converted_account_id: null,
    created_at: now,
    updated_at: now,
  }
  return ctx.db.write('lead.create', async (tx) => {
    if (ownerId !== null) await assertOwner(tx, actor.organizationId, ownerId)
    await insertLead(tx, row)
    await auditLead(tx, ctx, 'lead.created', row, now)
    return row
  })
}
