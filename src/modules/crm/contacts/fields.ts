// A contact's own field rules: phone numbers in E.164 (libphonenumber-js), e-mails lowercased, the
// identifiers unique among the organization's contacts (409 naming each taken field), an account of
// the same organization, and who may own what (agents: themselves or nobody).
import { parsePhoneNumberWithError } from 'libphonenumber-js'
import type { UserActor } from '../../../context.ts'
import type { Queries } from '../../../db/database.ts'
import { AppError, type FieldError, validationError } from '../../../errors.ts'
import { findAccount } from '../accounts/store.ts'
import { writesOnlyOwned } from '../ownership.ts'
import { findContactBy, type UniqueField } from './store.ts'

export const PHONE_EXPECTED = 'must be a valid phone number with its country code, e.g. +14155550123'

/** E.164 of `text` ("+44 20 7946 0958" and "+442079460958" are one number), or 400 naming the field. */
export function e164(text: string): string {
  try {
    const phone = parsePhoneNumberWithError(text.trim())
    // An extension has no place in E.164: kept, it would be silently lost.
    if (phone.isValid() && phone.ext === undefined) return phone.number
  } catch {
    // Not a number at all (no country code, too short, letters): the same answer as an invalid one.
  }
  throw validationError([{ field: 'phone', message: PHONE_EXPECTED }])
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** 409 naming each of `values` another live contact of the organization already has. */
export async function assertUnique(
  db: Queries,
  organizationId: string,
  values: Partial<Record<UniqueField, string | null>>,
  exceptId?: string,
): Promise<void> {
  const taken: FieldError[] = []
  for (const field of ['email', 'phone', 'external_id'] as const) {
    const value = values[field]
    if (value === undefined || value === null) continue
    const other = await findContactBy(db, organizationId, field, value)
    if (other && other.id !== exceptId) taken.push({ field, message: `is already the ${field} of contact ${other.id}` })
  }
  if (taken.length > 0)
    throw new AppError('CONFLICT', `Another contact has this ${taken.map((e) => e.field).join(' and ')}`, { errors: taken })
}

/** An account of the organization, or 400: another organization's account is as unknown as none. */
export async function assertAccount(db: Queries, organizationId: string, accountId: string): Promise<void> {
  if (!(await findAccount(db, organizationId, accountId)))
    throw validationError([{ field: 'account_id', message: 'is not an account of this organization' }])
}

/**
 * An agent (ownership.ts) gives contacts only to itself or to nobody: creating one owned by someone else,
 * or handing one over, would write a contact it may then no longer change.
 */
export function assertMayGive(actor: UserActor, ownerId: string | null): void {
  if (ownerId === null || ownerId === actor.userId || !writesOnlyOwned(actor, 'contact')) return
  throw new AppError('INSUFFICIENT_PERMISSIONS', 'An agent may make itself or nobody the owner of a contact, not another user')
}
