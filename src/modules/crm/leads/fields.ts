// Who may own a lead. The field rules themselves are the CRM's (../fields.ts: trimmed text, an owner who
// is an active user of the organization) and the contacts' (phone in E.164, e-mail lowercased), so a
// lead's phone and e-mail are spelled exactly as its contact's will be when it is converted.
import type { UserActor } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { writesOnlyOwned } from '../ownership.ts'

export { assertOwner, trimmedOrNull } from '../fields.ts'
export { e164, normalizeEmail } from '../contacts/fields.ts'

/**
 * An agent (who writes only leads it owns or nobody owns) may hand a lead only to itself or to nobody:
 * anything else would create a lead it may no longer change. Other roles give leads to anyone.
 */
export function assertMayGive(actor: UserActor, ownerId: string | null): void {
  if (ownerId === null || ownerId === actor.userId || !writesOnlyOwned(actor, 'lead')) return
  throw new AppError('INSUFFICIENT_PERMISSIONS', 'An agent may make itself or nobody the owner of a lead, not another user')
}
