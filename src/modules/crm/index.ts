// The CRM module's public entry: accounts (companies), contacts (people) and leads, their routes under
// /api/v1, and what other modules use of them.
// What other modules use (tickets: a ticket's contact; calls: the contact of a phone number), re-exported
// first (see access/index.ts).
export { type ContactJson, contactJson } from './contacts/contact-json.ts'
export { createContactInTx, type NewContact } from './contacts/create-contact.ts'
export { findContactByEmail, findContactByPhone, getContact } from './contacts/get-contact.ts'
export { e164, PHONE_EXPECTED } from './contacts/fields.ts'
export { type ContactRow, findContact, touchContactActivity } from './contacts/store.ts'
export { resolveTicketContact, type TicketContactInput } from './contacts/ticket-contact.ts'
// The components' examples, for the webhook examples and test sends (event-data).
export { ACCOUNT_EXAMPLE } from './accounts/model.ts'
export { CONTACT_EXAMPLE } from './contacts/model.ts'
export { LEAD_CONVERSION_EXAMPLE, LEAD_EXAMPLE } from './leads/model.ts'

import { Elysia } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { StreamedBody } from '../../http/body.ts'
import { accountsRoutes } from './accounts/routes.ts'
import { contactImportBody, contactsRoutes } from './contacts/routes.ts'
import { leadsRoutes } from './leads/routes.ts'

export function crmRoutes(app: AppContext) {
  return new Elysia().use(accountsRoutes(app)).use(contactsRoutes(app)).use(leadsRoutes(app))
}

/** The CRM's routes that read their bodies as streams (the contacts' CSV import). */
export function crmStreamedBodies(config: Pick<Config, 'importMaxBytes'>): StreamedBody[] {
  return [contactImportBody(config)]
}
