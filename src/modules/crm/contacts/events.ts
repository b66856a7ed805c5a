// The contact events (crm.contact.created|updated|deleted): the full contact under data.contact (the
// last state for deleted), recorded with the audit record and webhook deliveries in the verb's transaction.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { recordChange } from '../../events/index.ts'
import { contactJson } from './contact-json.ts'
import type { ContactRow } from './store.ts'

export type ContactEventType = 'crm.contact.created' | 'crm.contact.updated' | 'crm.contact.deleted'

export async function recordContactEvent(
  tx: Tx,
  ctx: Ctx,
  type: ContactEventType,
  contact: ContactRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: contact.organization_id,
    target: { type: 'contact', id: contact.id },
    data: { contact: contactJson(contact), ...extra },
    details: Array.isArray(extra.changed) ? { changed: extra.changed } : {},
    now,
  })
}
