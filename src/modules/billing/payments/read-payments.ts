// Reading payments: the organization's list (keyset, newest first; filters status, invoice_id and a
// creation window) and one payment, each with its refunds; another organization's payment is 404.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../../db/list.ts'
import { AppError } from '../../../errors.ts'
import type { PaymentStatus } from '../table.ts'
import { paymentJson } from './payment-json.ts'
import { findPayment, findRefundsOf, findRefundsOfMany, PAYMENT_LIST, type PaymentRow } from './store.ts'

export interface PaymentFilters {
  status?: PaymentStatus
  invoice_id?: string
  /** RFC 3339, exclusive. */
  created_after?: string
  created_before?: string
}

function conditions(filters: PaymentFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status !== undefined) where.push({ sql: 'payments.status = ?', params: [filters.status] })
  if (filters.invoice_id !== undefined) where.push({ sql: 'payments.invoice_id = ?', params: [filters.invoice_id] })
  where.push(...timeWindowConditions(filters, { created_after: 'payments.created_at > ?', created_before: 'payments.created_at < ?' }))
  return where
}

export async function listPayments(ctx: Ctx<UserActor>, input: { filters: PaymentFilters; request: ListRequest }) {
  const page = await PAYMENT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: conditions(input.filters),
  })
  const refunds = await findRefundsOfMany(
    ctx.db,
    page.rows.map((r) => r.id),
  )
  return listBody('payments', page, (row: PaymentRow) => paymentJson(row, refunds.get(row.id) ?? []))
}

export async function getPayment(ctx: Ctx<UserActor>, id: string) {
  const payment = await findPayment(ctx.db, ctx.actor.organizationId, id)
  if (!payment) throw new AppError('NOT_FOUND', 'No such payment')
  return paymentJson(payment, await findRefundsOf(ctx.db, payment.id))
}
