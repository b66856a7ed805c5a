// The HTTP layer of payments: the organization pays an invoice (by card with Stripe, by announcing a
// bank transfer with the manual provider) and reads its payments under /api/v1/billing; the operator
// records, confirms and bounces transfers, cancels payments and refunds them under /api/v1/operator.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { errorResponses } from '../../../http/problem.ts'
import { listRequest } from '../../../http/list.ts'
import {
  BounceTransferBody,
  IdParams,
  PayInvoiceBody,
  PaymentBody,
  PaymentList,
  PaymentListQuery,
  RecordTransferBody,
  RefundBody,
  RefundPaymentBody,
} from './model.ts'
import { bounceTransfer } from './bounce.ts'
import { payInvoice } from './pay-invoice.ts'
import { paymentJson, refundJson } from './payment-json.ts'
import { getPayment, listPayments } from './read-payments.ts'
import { refundPayment } from './refunds.ts'
import { findRefundsOf, type PaymentRow } from './store.ts'
import { cancelPayment, confirmTransfer, recordTransfer } from './transfers.ts'

const tags = ['Billing']
const operatorTags = ['Operator']
const STATUSES =
  "Statuses (Stripe's PaymentIntent): processing (a charge in flight, or a transfer awaiting the operator) -> succeeded, or requires_payment_method (the charge failed; retried in place) -> processing again; canceled (given up)."
const OPERATOR_ERRORS = errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'RATE_LIMITED', 'VALIDATION_FAILED', 'NOT_FOUND')

export function paymentsRoutes(app: AppContext) {
  const withRefunds = async (row: PaymentRow) => paymentJson(row, await findRefundsOf(app.db, row.id))
  const organization = new Elysia({ prefix: '/api/v1/billing' })
    .use(authMacros(app))
    .post(
      '/invoices/:id/pay',
      async ({ ctx, params, body, set }) => {
        const { payment, pending } = await payInvoice(ctx, { invoiceId: params.id, ...body })
        if (pending) set.status = 202
        return withRefunds(payment)
      },
      {
        permission: 'billing:manage',
        params: IdParams,
        body: PayInvoiceBody,
        response: {
          200: PaymentBody,
          202: PaymentBody,
          ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'INVALID_STATE_TRANSITION', 'PAYMENT_FAILED'),
        },
        detail: {
          tags,
          operationId: 'payInvoice',
          summary: 'Pay an open invoice',
          description: `Only an open or uncollectible invoice (409 otherwise). With Stripe (PAYMENT_PROVIDER=stripe): payment_method_id (pm_…, default the subscription's default payment method) is charged now for the amount remaining — succeeded: 200 with the payment (payment.succeeded, invoice.paid); no answer from Stripe yet: 202 with the payment processing (settled later by Stripe's webhook or the next collection); declined: 402 PAYMENT_FAILED saying why, errors[0] naming the payment (payment_id), the attempt recorded on it (payment.failed, invoice.failed). With the manual provider: reference announces a bank transfer of the amount remaining: a payment processing until the operator confirms it (the invoice stays open); one at a time per invoice (409). ${STATUSES}`,
        },
      },
    )
    .get(
      '/payments',
      ({ ctx, query }) => {
        const { page_size, page_token, sort, include_total, ...filters } = query
        return listPayments(ctx, { filters, request: listRequest({ page_size, page_token, sort, include_total }) })
      },
      {
        permission: 'billing:read',
        query: PaymentListQuery,
        response: { 200: t.NoValidate(PaymentList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listPayments',
          summary: "List the organization's payments",
          description: `Keyset-paginated, newest first. ${STATUSES}`,
        },
      },
    )
    .get('/payments/:id', ({ ctx, params }) => getPayment(ctx, params.id), {
      permission: 'billing:read',
      params: IdParams,
      response: { 200: PaymentBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getPayment', summary: 'Get a payment', description: STATUSES },
    })

  const operator = new Elysia({ prefix: '/api/v1/operator' })
    .use(authMacros(app))
    .post(
      '/invoices/:id/payments',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return withRefunds(await recordTransfer(ctx, { invoiceId: params.id, amount: body.amount, reference: body.reference }))
      },
      {
        operator: true,
        params: IdParams,
        body: RecordTransferBody,
        response: { 201: PaymentBody, ...OPERATOR_ERRORS, ...errorResponses('INVALID_STATE_TRANSITION') },
        detail: {
          tags: operatorTags,
          operationId: 'recordInvoiceTransfer',
          summary: 'Record a bank transfer received for an invoice',
          description:
            "A payment succeeded at once (provider manual; payment.succeeded), applied to any organization's open or uncollectible invoice (409 otherwise): partial payments are allowed, more than the amount remaining is 400. The invoice is paid (invoice.paid) when nothing remains.",
        },
      },
    )
    .post('/payments/:id/confirm', async ({ ctx, params }) => withRefunds(await confirmTransfer(ctx, { paymentId: params.id })), {
      operator: true,
      params: IdParams,
      response: { 200: PaymentBody, ...OPERATOR_ERRORS, ...errorResponses('CONFLICT', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags: operatorTags,
        operationId: 'confirmTransfer',
        summary: 'Confirm an announced bank transfer',
        description:
          'processing -> succeeded (payment.succeeded), applied to its invoice (invoice.paid when nothing remains; 409 when the invoice is no longer open or remains less). Only a manual payment processing (409 otherwise).',
      },
    })
    .post('/payments/:id/cancel', async ({ ctx, params }) => withRefunds(await cancelPayment(ctx, { paymentId: params.id })), {
      operator: true,
      params: IdParams,
      response: { 200: PaymentBody, ...OPERATOR_ERRORS, ...errorResponses('INVALID_STATE_TRANSITION') },
      detail: {
        tags: operatorTags,
        operationId: 'cancelPayment',
        summary: 'Cancel a payment',
        description:
          'An announced transfer (processing) -> canceled: it failed (the money never came), recorded as its last attempt (last_error code transfer_canceled): payment.failed with the payment and the error, and the invoice stays open, as for a bounce. A payment given up on before any attempt (requires_payment_method, requires_confirmation, requires_action) -> canceled, audited (no event). A Stripe charge in flight, a succeeded or canceled payment: 409.',
      },
    })
    .post(
      '/payments/:id/bounce',
      async ({ ctx, params, body }) => withRefunds(await bounceTransfer(ctx, { paymentId: params.id, reason: body.reason })),
      {
        operator: true,
        params: IdParams,
        body: BounceTransferBody,
        response: { 200: PaymentBody, ...OPERATOR_ERRORS, ...errorResponses('INVALID_STATE_TRANSITION') },
        detail: {
          tags: operatorTags,
          operationId: 'bounceTransfer',
          summary: 'Mark an announced bank transfer as failed (returned by the bank, or never arrived)',
          description:
            'processing -> canceled, the failure recorded as its last attempt (last_error code transfer_bounced, message the reason given): payment.failed with the payment and the error. The invoice stays open and owed (its due date and dunning unchanged); the organization may announce another transfer. Only a manual payment processing: a succeeded (confirmed) or canceled transfer, or a Stripe payment, is 409 INVALID_STATE_TRANSITION.',
        },
      },
    )
    .post(
      '/payments/:id/refunds',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return refundJson(await refundPayment(ctx, { paymentId: params.id, amount: body.amount, reason: body.reason }))
      },
      {
        operator: true,
        params: IdParams,
        body: RefundPaymentBody,
        response: { 201: RefundBody, ...OPERATOR_ERRORS, ...errorResponses('CONFLICT', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags: operatorTags,
          operationId: 'refundPayment',
          summary: 'Refund a payment, in full or in part',
          description:
            "Only a succeeded payment (409 otherwise); at most what is left to refund (400), default all of it. A transfer's refund (the operator's own transfer back) is succeeded at once; a Stripe payment's goes through Stripe's refunds (pending, then Stripe's status; refused by Stripe: 409, the refund failed). The payment's amount_refunded counts pending and succeeded refunds; its invoice stays paid. Audited (no event).",
        },
      },
    )
  return new Elysia().use(organization).use(operator)
}
