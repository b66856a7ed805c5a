// The invoice events (catalog group `billing`), each recorded in the transaction of the change with the
// full invoice, lines included, under data.invoice: invoice.paid (it became paid) and invoice.failed (a
// payment attempt on it failed, + error). The other changes of an invoice have no event: they are
// audited (invoice.created, invoice.finalized, invoice.voided, invoice.marked_uncollectible,
// invoice.deleted, invoice.credited: unused time of a later change taken off it) in their transaction.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { recordChange } from '../../events/index.ts'
import { invoiceJson } from './invoice-json.ts'
import { findInvoiceLines, type InvoiceRow } from './store.ts'

export async function recordInvoiceEvent(
  tx: Tx,
  ctx: Ctx,
  type: 'invoice.paid' | 'invoice.failed',
  invoice: InvoiceRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: invoice.organization_id,
    target: { type: 'invoice', id: invoice.id },
    data: { invoice: invoiceJson(invoice, await findInvoiceLines(tx, invoice.id)), ...extra },
    now,
  })
}

export type InvoiceAuditEvent =
  | 'invoice.created'
  | 'invoice.finalized'
  | 'invoice.voided'
  | 'invoice.marked_uncollectible'
  | 'invoice.deleted'
  | 'invoice.credited'

/** A change without an event: its audit record, in the same transaction. */
export async function auditInvoice(
  tx: Tx,
  ctx: Ctx,
  event: InvoiceAuditEvent,
  invoice: InvoiceRow,
  now: number,
  details: Record<string, unknown> = {},
): Promise<void> {
  await appendAudit(tx, {
    organizationId: invoice.organization_id,
    actor: auditActorOf(ctx.actor),
    event,
    target: { type: 'invoice', id: invoice.id },
    details: { number: invoice.number, status: invoice.status, total: Number(invoice.total), currency: invoice.currency, ...details },
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
}
