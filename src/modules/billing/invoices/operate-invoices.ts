// The operator's verbs on invoices (routes with an operator token, any organization): a one-off draft
// (kind manual), read, finalize, delete a draft, void, mark uncollectible. Each is one transaction
// around the part's *InTx functions; each returns the invoice with its lines.
import type { Ctx, SystemActor } from '../../../context.ts'
import type { Queries, Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { findOrganization } from '../../organizations/index.ts'
import { isWithinMaxAmount, MAX_AMOUNT_TEXT, normalizeCurrency } from '../money.ts'
import type { CollectionMethod } from '../table.ts'
import { markInvoiceUncollectibleInTx, voidInvoiceInTx } from './close.ts'
import { createDraftInvoiceInTx, deleteDraftInvoiceInTx, type NewInvoiceLine } from './draft.ts'
import { finalizeInvoiceInTx } from './finalize.ts'
import { findInvoiceById, findInvoiceLines, type InvoiceLineRow, type InvoiceRow } from './store.ts'

export interface InvoiceWithLines {
  invoice: InvoiceRow
  lines: InvoiceLineRow[]
}

export interface ManualInvoiceInput {
  organizationId: string
  currency: string
  /** Default: charge_automatically with the Stripe provider, send_invoice with the manual one (which cannot charge: 400). */
  collection_method?: CollectionMethod
  description?: string | null
  lines: { description: string; quantity: number; unit_amount: number }[]
}

async function withLines(db: Queries, invoice: InvoiceRow): Promise<InvoiceWithLines> {
  return { invoice, lines: await findInvoiceLines(db, invoice.id) }
}

export async function createManualInvoice(ctx: Ctx<SystemActor>, input: ManualInvoiceInput): Promise<InvoiceWithLines> {
  const currency = normalizeCurrency(input.currency)
  if (currency === undefined) throw validationError([{ field: 'currency', message: 'is not an ISO 4217 currency code' }])
  const lines: NewInvoiceLine[] = input.lines.map((line, i) => {
    const amount = line.quantity * line.unit_amount
    if (!isWithinMaxAmount(amount))
      throw validationError([
        {
          field: `lines[${i}]`,
          message: `quantity × unit_amount (${line.quantity} × ${line.unit_amount}) is beyond ±${MAX_AMOUNT_TEXT} minor units`,
        },
      ])
    return { kind: 'manual', description: line.description.trim(), quantity: line.quantity, unit_amount: line.unit_amount, amount }
  })
  const stripe = ctx.config.billing.provider === 'stripe'
  // The manual provider charges nothing: such an invoice would wait for a charge forever.
  if (input.collection_method === 'charge_automatically' && !stripe)
    throw validationError([
      { field: 'collection_method', message: 'charge_automatically needs the Stripe payment provider (PAYMENT_PROVIDER=stripe)' },
    ])
  const collectionMethod = input.collection_method ?? (stripe ? 'charge_automatically' : 'send_invoice')
  const now = ctx.clock.now()
  return ctx.db.write('invoice.create', async (tx) => {
    if (!(await findOrganization(tx, input.organizationId))) throw new AppError('NOT_FOUND', 'No such organization')
    const invoice = await createDraftInvoiceInTx(tx, ctx, {
      organizationId: input.organizationId,
      subscriptionId: null,
      billingReason: 'manual',
      collectionMethod,
      currency,
      lines,
      periodStart: null,
      periodEnd: null,
      description: input.description?.trim() || null,
      now,
    })
    return withLines(tx, invoice)
  })
}

/** Any organization's invoice, or 404. */
export async function getInvoiceForOperator(ctx: Ctx<SystemActor>, id: string): Promise<InvoiceWithLines> {
  const invoice = await findInvoiceById(ctx.db, id)
  if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice')
  return withLines(ctx.db, invoice)
}

type Move = (tx: Tx, ctx: Ctx, invoiceId: string, now: number) => Promise<InvoiceRow>

function operation(name: string, move: Move) {
  return async (ctx: Ctx<SystemActor>, id: string): Promise<InvoiceWithLines> => {
    const now = ctx.clock.now()
    return ctx.db.write(name, async (tx) => withLines(tx, await move(tx, ctx, id, now)))
  }
}

export const finalizeInvoice = operation('invoice.finalize', finalizeInvoiceInTx)
export const voidInvoice = operation('invoice.void', voidInvoiceInTx)
export const markInvoiceUncollectible = operation('invoice.mark_uncollectible', markInvoiceUncollectibleInTx)

/** Deletes a draft (409 once finalized). */
export async function deleteInvoice(ctx: Ctx<SystemActor>, id: string): Promise<void> {
  const now = ctx.clock.now()
  await ctx.db.write('invoice.delete', (tx) => deleteDraftInvoiceInTx(tx, ctx, id, now))
}
