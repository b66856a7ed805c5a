// The audit records of lead changes. The spec has no lead.* event type, so a lead's creation, changes and
// deletion are audited only (appendAudit, in the verb's transaction). The record names the changed
// fields, never their values: the audit chain is append-only, and a deleted lead's personal data must
// not outlive it there.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import type { LeadRow } from './store.ts'

export type LeadAuditEvent = 'lead.created' | 'lead.updated' | 'lead.deleted'

export async function auditLead(
  tx: Tx,
  ctx: Ctx,
  event: LeadAuditEvent,
  lead: Pick<LeadRow, 'id' | 'organization_id'>,
  now: number,
  details: Record<string, unknown> = {},
): Promise<void> {
  await appendAudit(tx, {
    organizationId: lead.organization_id,
    actor: auditActorOf(ctx.actor),
    event,
    target: { type: 'lead', id: lead.id },
    details,
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
}
