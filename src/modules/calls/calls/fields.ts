// A call's field rules: phone numbers in E.164 (the CRM's rule, so a call finds its contact by the
// number), an agent who is an active user of the organization (an agent role takes calls only for
// itself), the contact given or found by the other party's number, and a ticket of the organization.
import type { Actor } from '../../../context.ts'
import type { Queries } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { e164, findContact, findContactByPhone, PHONE_EXPECTED } from '../../crm/index.ts'
import { findUserInOrg } from '../../users/index.ts'
import type { CallDirection } from '../table.ts'
import { ticketExists } from './store.ts'
import { handlesOnlyOwnCalls } from './visibility.ts'

/** E.164 of `text`, or 400 naming the field. */
export function phoneNumber(field: string, text: string): string {
  try {
    return e164(text)
  } catch (error) {
    if (error instanceof AppError) throw validationError([{ field, message: PHONE_EXPECTED }])
    throw error
  }
}

/** E.164 when `text` is a phone number; undefined for a provider's other callers (`client:alice`, a SIP address). */
export function phoneOrUndefined(text: string): string | undefined {
  try {
    return e164(text)
  } catch {
    return undefined
  }
}

/** 400 naming the field unless the user is an active user of the organization (another organization's is as unknown). */
export async function assertAgentUser(db: Queries, organizationId: string, userId: string, field = 'agent_id'): Promise<void> {
  if ((await findUserInOrg(db, organizationId, userId))?.status !== 'active')
    throw validationError([{ field, message: 'is not an active user of this organization' }])
}

/** 403 when an agent (SCOPES) would give a call to another user: it takes calls only for itself. */
export function assertMayTake(actor: Actor, agentId: string | null): void {
  if (agentId === null || !handlesOnlyOwnCalls(actor) || (actor.kind === 'user' && agentId === actor.userId)) return
  throw new AppError('INSUFFICIENT_PERMISSIONS', 'An agent takes calls only for itself: agent_id must be your own user id')
}

/** The other party's number: the caller of an inbound call, the callee of an outbound one. */
export function customerNumber(call: { direction: CallDirection; from_number: string; to_number: string }): string {
  return call.direction === 'inbound' ? call.from_number : call.to_number
}

/**
 * The call's contact: the one given (400 unless a live contact of the organization), none when given
 * null, else the organization's contact with the other party's number (none when nobody has it).
 */
export async function contactOf(
  db: Queries,
  organizationId: string,
  given: string | null | undefined,
  call: { direction: CallDirection; from_number: string; to_number: string },
): Promise<string | null> {
  if (given === null) return null
  if (given !== undefined) {
    if (!(await findContact(db, organizationId, given)))
      throw validationError([{ field: 'contact_id', message: 'is not a contact of this organization' }])
    return given
  }
  const number = customerNumber(call)
  // Only a number in E.164 can be a contact's (a provider's client name cannot).
  if (!number.startsWith('+')) return null
  return (await findContactByPhone(db, organizationId, number))?.id ?? null
}

/** 400 naming ticket_id unless it is a ticket of the organization. */
export async function assertTicket(db: Queries, organizationId: string, ticketId: string): Promise<void> {
  if (!(await ticketExists(db, organizationId, ticketId)))
    throw validationError([{ field: 'ticket_id', message: 'is not a ticket of this organization' }])
}

/** A queue's name: trimmed; '' is none. */
export function queueName(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
