// Reading one contact: the live contact of the organization (merged and other organizations' are
// 404), and GET /contacts/{id}'s view with its account embedded.
import type { Ctx, UserActor } from '../../../context.ts'
import type { Queries, Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { accountJson } from '../accounts/account-json.ts'
import { findAccount } from '../accounts/store.ts'
import { contactJson } from './contact-json.ts'
import { normalizeEmail } from './fields.ts'
import { type ContactRow, findContact, findContactBy, lockContacts } from './store.ts'

/** The contact, or 404 "No such contact". `db` is the transaction when the verb writes. */
export async function getContact(db: Queries, organizationId: string, id: string): Promise<ContactRow> {
  const contact = await findContact(db, organizationId, id)
  if (!contact) throw new AppError('NOT_FOUND', 'No such contact')
  return contact
}

/** As getContact, locked FOR UPDATE until the transaction ends: for a verb that changes or deletes it (lockContacts). */
export async function getContactForUpdate(tx: Tx, organizationId: string, id: string): Promise<ContactRow> {
  const contact = (await lockContacts(tx, organizationId, [id])).get(id)
  if (!contact) throw new AppError('NOT_FOUND', 'No such contact')
  return contact
}

/** The live contact with this e-mail, whatever its case. */
export function findContactByEmail(db: Queries, organizationId: string, email: string): Promise<ContactRow | undefined> {
  return findContactBy(db, organizationId, 'email', normalizeEmail(email))
}

/** The live contact with this phone number, given in E.164 (contacts store theirs so): a call's caller or callee. */
export function findContactByPhone(db: Queries, organizationId: string, phone: string): Promise<ContactRow | undefined> {
  return findContactBy(db, organizationId, 'phone', phone)
}

export async function getContactWithAccount(ctx: Ctx<UserActor>, input: { id: string }) {
  const contact = await getContact(ctx.db, ctx.actor.organizationId, input.id)
  const account = contact.account_id === null ? undefined : await findAccount(ctx.db, contact.organization_id, contact.account_id)
  return { ...contactJson(contact), account: account ? accountJson(account) : null }
}
