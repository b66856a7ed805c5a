// The account and the contact a lead converts into, each found or created inside the conversion's
// transaction with the events of what it creates or changes. A reference to another organization's
// account or contact is refused exactly like one that does not exist (400 naming the field).
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { searchKey } from '../../../lib/search-key.ts'
import type { NewAccount } from '../accounts/create-account.ts'
import { recordAccountEvent } from '../accounts/events.ts'
import { domainOf } from '../accounts/fields.ts'
import { type AccountRow, findAccount, findAccountByDomain, insertAccount } from '../accounts/store.ts'
import { createContactInTx, type NewContact } from '../contacts/create-contact.ts'
import { recordContactEvent } from '../contacts/events.ts'
import { e164, normalizeEmail } from '../contacts/fields.ts'
import { type ContactRow, findContact, findContactBy, linkContactToAccount } from '../contacts/store.ts'
import { assertOwner, checkCustomFields, normalizeTags, trimmedOrNull } from '../fields.ts'
import { assertMayWrite } from '../ownership.ts'

/** Either an existing one by id, or one to create (its fields default from the lead). */
export type Target<New> = { id: string; create?: undefined } | { id?: undefined; create: New }

export type AccountTarget = Target<Partial<NewAccount>>
export type ContactTarget = Target<Partial<Omit<NewContact, 'account_id'>>>

interface Place {
  organizationId: string
  now: number
}

/** Runs `block`, naming the fields of its 400s and 409s under `prefix` (`phone` -> `contact.create.phone`). */
export async function named<T>(prefix: string, block: () => Promise<T>): Promise<T> {
  try {
    return await block()
  } catch (error) {
    if (!(error instanceof AppError) || error.errors === undefined) throw error
    const errors = error.errors.map((e) => ({ ...e, field: `${prefix}.${e.field}` }))
    throw new AppError(error.code, error.message, { errors })
  }
}

/**
 * The account: by id, or created. One to create whose domain an account of the organization already has
 * is that account (two leads of one company convert into one account); its name defaults to the lead's
 * company name.
 */
export async function accountFor(tx: Tx, ctx: Ctx, target: AccountTarget, companyName: string | null, at: Place): Promise<AccountRow> {
  if (target.create === undefined) {
    const account = await findAccount(tx, at.organizationId, target.id)
    if (!account) throw validationError([{ field: 'id', message: 'is not an account of this organization' }])
    return account
  }
  const input = target.create
  return named('create', () => createdAccount(tx, ctx, input, companyName, at))
}

async function createdAccount(tx: Tx, ctx: Ctx, input: Partial<NewAccount>, companyName: string | null, at: Place): Promise<AccountRow> {
  const domain = domainOf(input.domain ?? null)
  const existing = domain === null ? undefined : await findAccountByDomain(tx, at.organizationId, domain)
  if (existing) return existing
  const name = trimmedOrNull(input.name ?? companyName)
  if (name === null) throw validationError([{ field: 'name', message: 'is required when the lead has no company name' }])
  const row: AccountRow = {
    id: prefixedId('acc'),
    organization_id: at.organizationId,
    name,
    name_key: searchKey(name),
    domain,
    industry: trimmedOrNull(input.industry),
    size: input.size ?? null,
    owner_id: input.owner_id ?? null,
    tags: JSON.stringify(normalizeTags(input.tags ?? [])),
    custom_fields: checkCustomFields(input.custom_fields ?? {}),
    created_at: at.now,
    updated_at: at.now,
  }
  if (row.owner_id !== null) await assertOwner(tx, row.organization_id, row.owner_id)
  await insertAccount(tx, row)
  await recordAccountEvent(tx, ctx, 'crm.account.created', row, at.now)
  return row
}

export interface ContactDefaults {
  name: string
  email: string | null
  phone: string | null
  owner_id: string | null
}

/** A live contact of the organization with this e-mail, else with this phone (both normalized first). */
async function existingContact(
  tx: Tx,
  organizationId: string,
  email: string | null,
  phone: string | null,
): Promise<ContactRow | undefined> {
  const byEmail = email === null ? undefined : await findContactBy(tx, organizationId, 'email', normalizeEmail(email))
  return byEmail ?? (phone === null ? undefined : await findContactBy(tx, organizationId, 'phone', e164(phone)))
}

/** The contact with the e-mail, then the phone, of the one to create; or that one, created already linked to `account`. */
async function foundOrCreated(
  tx: Tx,
  ctx: Ctx,
  create: ContactTarget['create'] & {},
  lead: ContactDefaults,
  account: AccountRow | undefined,
  at: Place,
): Promise<{ row: ContactRow; created: boolean }> {
  const input: NewContact = {
    contact_type: 'customer',
    ...create,
    name: create.name ?? lead.name,
    email: create.email === undefined ? lead.email : create.email,
    phone: create.phone === undefined ? lead.phone : create.phone,
    owner_id: create.owner_id === undefined ? lead.owner_id : create.owner_id,
  }
  const existing = await existingContact(tx, at.organizationId, trimmedOrNull(input.email), trimmedOrNull(input.phone))
  if (existing) return { row: existing, created: false }
  const row = await createContactInTx(tx, ctx, {
    ...input,
    account_id: account?.id ?? null,
    organizationId: at.organizationId,
    now: at.now,
  })
  return { row, created: true }
}

/**
 * The contact: by id, or the organization's contact with the same e-mail, then the same phone, or else
 * created (a customer unless told otherwise; name, e-mail, phone and owner default to the lead's). It is
 * linked to `account` when one is given: a change of a contact that existed (crm.contact.updated), which
 * an agent may make only to a contact it owns or nobody owns.
 */
export async function contactFor(
  tx: Tx,
  ctx: Ctx<UserActor>,
  target: ContactTarget,
  lead: ContactDefaults,
  account: AccountRow | undefined,
  at: Place,
): Promise<ContactRow> {
  const { create } = target
  const { row: contact, created } =
    create === undefined
      ? { row: await findContact(tx, at.organizationId, target.id), created: false }
      : await named('create', () => foundOrCreated(tx, ctx, create, lead, account, at))
  if (!contact) throw validationError([{ field: 'id', message: 'is not a contact of this organization' }])
  if (created || account === undefined || contact.account_id === account.id) return contact
  assertMayWrite(ctx.actor, 'contact', contact.owner_id)
  const linked = await linkContactToAccount(tx, contact, account.id, at.now)
  await recordContactEvent(tx, ctx, 'crm.contact.updated', linked, at.now, { changed: ['account_id'] })
  return linked
}
