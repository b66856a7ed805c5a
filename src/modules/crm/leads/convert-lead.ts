// convertLead: a qualified lead becomes a contact (found by e-mail, then phone, or created) and
// optionally an account, in one transaction, with crm.contact.lead_converted (lead, contact and account
// in data) after the created/updated events of what it made. Converting a converted lead changes
// nothing and answers what the conversion made: a retry, or ten at once, make one contact.
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { validationError } from '../../../errors.ts'
import { accountJson } from '../accounts/account-json.ts'
import { type AccountRow, findAccount } from '../accounts/store.ts'
import { contactJson } from '../contacts/contact-json.ts'
import { type ContactRow, findContact } from '../contacts/store.ts'
import { recordChange } from '../../events/index.ts'
import { assertMayWrite } from '../ownership.ts'
import { type AccountTarget, accountFor, type ContactTarget, contactFor, named } from './conversion-parts.ts'
import { getLeadForUpdate } from './get-lead.ts'
import { leadJson } from './lead-json.ts'
import { assertTransition } from './lifecycle.ts'
import { type LeadRow, saveLead } from './store.ts'

export interface ConvertLead {
  id: string
  /** null or left out: no account. */
  account?: AccountTarget | null
  contact: ContactTarget
}

export interface Conversion {
  lead: LeadRow
  /** Undefined only when the contact was deleted after the conversion. */
  contact: ContactRow | undefined
  account: AccountRow | undefined
}

export function conversionJson(conversion: Conversion) {
  return {
    lead: leadJson(conversion.lead),
    contact: conversion.contact ? contactJson(conversion.contact) : null,
    account: conversion.account ? accountJson(conversion.account) : null,
  }
}

/** What a converted lead was converted into, as it is now. */
async function madeOf(tx: Tx, lead: LeadRow): Promise<Conversion> {
  const contact = lead.converted_contact_id ? await findContact(tx, lead.organization_id, lead.converted_contact_id) : undefined
  const account = lead.converted_account_id ? await findAccount(tx, lead.organization_id, lead.converted_account_id) : undefined
  return { lead, contact, account }
}

export async function convertLead(ctx: Ctx<UserActor>, input: ConvertLead): Promise<Conversion> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const at = { organizationId: actor.organizationId, now }
  return ctx.db.write('lead.convert', async (tx) => {
    // Locked: of conversions at once, the first converts and the others then read `converted` (one contact).
    const before = await getLeadForUpdate(tx, actor, input.id)
    assertMayWrite(actor, 'lead', before.owner_id)
    if (before.status === 'converted') return madeOf(tx, before)
    assertTransition(before.status, 'converted', 'convert')
    const { account: accountTarget } = input
    const account = accountTarget ? await named('account', () => accountFor(tx, ctx, accountTarget, before.company_name, at)) : undefined
    const contact = await named('contact', () => contactFor(tx, ctx, input.contact, before, account, at))
    const lead: LeadRow = {
      ...before,
      status: 'converted',
      converted_at: now,
      converted_contact_id: contact.id,
      converted_account_id: account?.id ?? null,
      updated_at: now,
    }
    await saveLead(tx, lead)
    const conversion = { lead, contact, account }
    await recordChange(tx, ctx, {
      type: 'crm.contact.lead_converted',
      organizationId: lead.organization_id,
      target: { type: 'lead', id: lead.id },
      data: conversionJson(conversion),
      details: { contact_id: contact.id, account_id: account?.id ?? null },
      now,
    })
    return conversion
  })
}

/** A body's `{id}` or `{create}`: exactly one of them, or 400 naming the part. */
export function targetOf<New>(field: 'account' | 'contact', value: { id?: string; create?: New }): { id: string } | { create: New } {
  if (value.id !== undefined && value.create === undefined) return { id: value.id }
  if (value.create !== undefined && value.id === undefined) return { create: value.create }
  throw validationError([{ field, message: 'must have exactly one of id (an existing one) and create (a new one)' }])
}
