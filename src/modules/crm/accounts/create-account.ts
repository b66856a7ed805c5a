// createAccount: a new account (company) with crm.account.created in the same transaction; its domain
// is unique in the organization (409 naming the field).
import type { Ctx, UserActor } from '../../../context.ts'
import type { Queries } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { assertOwner, checkCustomFields, normalizeTags, trimmedOrNull } from '../fields.ts'
import { recordAccountEvent } from './events.ts'
import { type AccountSize, domainOf } from './fields.ts'
import { type AccountRow, findAccountByDomain, insertAccount } from './store.ts'

export interface NewAccount {
  name: string
  domain?: string | null
  industry?: string | null
  size?: AccountSize | null
  owner_id?: string | null
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
}

/** 409 when another account of the organization has this domain. */
export async function assertDomainFree(db: Queries, organizationId: string, domain: string, exceptId?: string): Promise<void> {
  const other = await findAccountByDomain(db, organizationId, domain)
  if (other && other.id !== exceptId)
    throw new AppError('CONFLICT', `Another account has the domain ${domain}`, {
      errors: [{ field: 'domain', message: `is already the domain of account ${other.id}` }],
    })
}

export async function createAccount(ctx: Ctx<UserActor>, input: NewAccount): Promise<AccountRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const name = input.name.trim()
  // The fields' own checks before the writer is taken.
  const row: AccountRow = {
    id: prefixedId('acc'),
    organization_id: actor.organizationId,
    name,
    name_key: searchKey(name),
    domain: domainOf(input.domain ?? null),
    industry: trimmedOrNull(input.industry),
    size: input.size ?? null,
    owner_id: input.owner_id ?? null,
    tags: JSON.stringify(normalizeTags(input.tags ?? [])),
    custom_fields: checkCustomFields(input.custom_fields ?? {}),
    created_at: now,
    updated_at: now,
  }
  return ctx.db.write('account.create', async (tx) => {
    if (row.domain !== null) await assertDomainFree(tx, row.organization_id, row.domain)
    if (row.owner_id !== null) await assertOwner(tx, row.organization_id, row.owner_id)
    await insertAccount(tx, row)
    await recordAccountEvent(tx, ctx, 'crm.account.created', row, now)
    return row
  })
}
