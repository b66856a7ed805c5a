// The HTTP layer of invoices: the organization's (billing:read) list, read and PDF under
// /api/v1/billing/invoices, and the operator's (an operator token) one-off drafts, reads and lifecycle
// moves under /api/v1/operator. Organizations see their drafts too (as Stripe's API lists them): no
// number, pdf_url null, and no PDF (409).
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { listRequest } from '../../../http/list.ts'
import { errorResponses } from '../../../http/problem.ts'
import { invoiceJson } from './invoice-json.ts'
import { INVOICE_LIFECYCLE } from './lifecycle.ts'
import { CreateInvoiceBody, InvoiceBody, InvoiceIdParams, InvoiceList, InvoiceListQuery, OrganizationIdParams } from './model.ts'
import {
  createManualInvoice,
  deleteInvoice,
  finalizeInvoice,
  getInvoiceForOperator,
  type InvoiceWithLines,
  markInvoiceUncollectible,
  voidInvoice,
} from './operate-invoices.ts'
import { getInvoice, getInvoicePdf, listInvoices } from './read-invoices.ts'

const tags = ['Billing']
const operatorTags = ['Operator']
const DRAFTS = 'Drafts are listed too (number and pdf_url null); another organization’s invoice is 404 like a missing one.'
const operatorErrors = (...codes: Parameters<typeof errorResponses>) =>
  errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'RATE_LIMITED', ...codes)
const json = ({ invoice, lines }: InvoiceWithLines) => invoiceJson(invoice, lines)

const PDF_RESPONSE = {
  200: {
    description: 'The invoice as a PDF, as an attachment named <number>.pdf',
    content: { 'application/pdf': { schema: { type: 'string' as const, format: 'binary' } } },
  },
}

function organizationRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/billing/invoices' })
    .use(authMacros(app))
    .get(
      '',
      ({ ctx, query }) => {
        const { page_size, page_token, sort, include_total, ...filters } = query
        return listInvoices(ctx, { filters, request: listRequest({ page_size, page_token, sort, include_total }) })
      },
      {
        permission: 'billing:read',
        query: InvoiceListQuery,
        response: { 200: InvoiceList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listInvoices',
          summary: 'List invoices',
          description: `Keyset-paginated, newest first by default. ${DRAFTS}`,
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => json(await getInvoice(ctx, params.id)), {
      permission: 'billing:read',
      params: InvoiceIdParams,
      response: { 200: InvoiceBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getInvoice', summary: 'Get an invoice', description: DRAFTS },
    })
    .get(
      '/:id/pdf',
      async ({ ctx, params }) => {
        const { bytes, filename } = await getInvoicePdf(ctx, params.id)
        return new Response(bytes, {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': `attachment; filename="${filename}"`,
            'cache-control': 'no-store',
          },
        })
      },
      {
        permission: 'billing:read',
        params: InvoiceIdParams,
        response: protectedErrors('NOT_FOUND', 'CONFLICT'),
        detail: {
          tags,
          operationId: 'getInvoicePdf',
          summary: "Download an invoice's PDF",
          description:
            'The issuer (INVOICE_ISSUER), the customer, number, dates, lines, subtotal, tax, total, applied balance, amounts paid and remaining, and the status once paid, void or uncollectible. A draft has no PDF: 409 CONFLICT.',
          responses: PDF_RESPONSE,
        },
      },
    )
}

function operatorRoutes(app: AppContext) {
  const moveErrors = operatorErrors('NOT_FOUND', 'CONFLICT', 'INVALID_STATE_TRANSITION')
  return new Elysia({ prefix: '/api/v1/operator' })
    .use(authMacros(app))
    .post(
      '/organizations/:org_id/invoices',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return json(await createManualInvoice(ctx, { organizationId: params.org_id, ...body }))
      },
      {
        operator: true,
        params: OrganizationIdParams,
        body: CreateInvoiceBody,
        response: { 201: InvoiceBody, ...operatorErrors('VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags: operatorTags,
          operationId: 'createOperatorInvoice',
          summary: 'Create a one-off invoice (draft)',
          description: `Operator only. A draft of manual lines (amount = quantity × unit_amount) for the organization, with tax estimated at its rate until finalization. ${INVOICE_LIFECYCLE}`,
        },
      },
    )
    .get('/invoices/:id', async ({ ctx, params }) => json(await getInvoiceForOperator(ctx, params.id)), {
      operator: true,
      params: InvoiceIdParams,
      response: { 200: InvoiceBody, ...operatorErrors('NOT_FOUND') },
      detail: {
        tags: operatorTags,
        operationId: 'getOperatorInvoice',
        summary: 'Get any organization’s invoice',
        description: 'Operator only.',
      },
    })
    .post('/invoices/:id/finalize', async ({ ctx, params }) => json(await finalizeInvoice(ctx, params.id)), {
      operator: true,
      params: InvoiceIdParams,
      response: { 200: InvoiceBody, ...moveErrors },
      detail: {
        tags: operatorTags,
        operationId: 'finalizeInvoice',
        summary: 'Finalize a draft',
        description: `Operator only. draft -> open: the next number of the organization, tax at its rate, its credit balance applied (a negative total is added to it), its billing details copied, due now (charge_automatically: the cron loop charges it) or in days_until_due days (send_invoice). Nothing to pay: paid at once (invoice.paid). ${INVOICE_LIFECYCLE}`,
      },
    })
    .delete(
      '/invoices/:id',
      async ({ ctx, params, set }) => {
        await deleteInvoice(ctx, params.id)
        set.status = 204
      },
      {
        operator: true,
        params: InvoiceIdParams,
        response: { 204: t.Void({ description: 'Deleted' }), ...moveErrors },
        detail: {
          tags: operatorTags,
          operationId: 'deleteInvoice',
          summary: 'Delete a draft',
          description: `Operator only; a draft only. ${INVOICE_LIFECYCLE}`,
        },
      },
    )
    .post('/invoices/:id/void', async ({ ctx, params }) => json(await voidInvoice(ctx, params.id)), {
      operator: true,
      params: InvoiceIdParams,
      response: { 200: InvoiceBody, ...moveErrors },
      detail: {
        tags: operatorTags,
        operationId: 'voidInvoice',
        summary: 'Void an invoice',
        description: `Operator only. open or uncollectible -> void; the credit balance it took goes back to the organization; one with payments on it is 409 CONFLICT. ${INVOICE_LIFECYCLE}`,
      },
    })
    .post('/invoices/:id/mark-uncollectible', async ({ ctx, params }) => json(await markInvoiceUncollectible(ctx, params.id)), {
      operator: true,
      params: InvoiceIdParams,
      response: { 200: InvoiceBody, ...moveErrors },
      detail: {
        tags: operatorTags,
        operationId: 'markInvoiceUncollectible',
        summary: 'Mark an invoice uncollectible',
        description: `Operator only. open -> uncollectible: no more payment attempts; it may still be paid or voided. ${INVOICE_LIFECYCLE}`,
      },
    })
}

export function invoicesRoutes(app: AppContext) {
  return new Elysia().use(organizationRoutes(app)).use(operatorRoutes(app))
}
