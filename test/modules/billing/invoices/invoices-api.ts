// What the invoices tests share: an app with two organizations and an operator token, requests as a
// client sends them, the invoice as a client reads it, one-off invoices made and moved through the
// operator's routes, an organization's billing account set directly (its own routes belong to another
// part), and the invoice events as written.
import { afterAll, expect } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { ensureBillingAccountInTx } from '../../../../src/modules/billing/accounts/account.ts'
import { updateBillingAccountRow } from '../../../../src/modules/billing/accounts/store.ts'
import {
  applyInvoicePaymentInTx,
  createDraftInvoiceInTx,
  finalizeInvoiceInTx,
  listDueInvoices,
  type NewDraftInvoice,
  recordInvoicePaymentFailureInTx,
  voidInvoiceInTx,
} from '../../../../src/modules/billing/invoices/collect.ts'
import type { BillingAccountsTable } from '../../../../src/modules/billing/table.ts'
import { createOperatorToken } from '../../../../src/modules/operators/index.ts'
import { json, makeTestApp, type TestApp } from '../../../helpers/app.ts'
import type { FakeClock } from '../../../helpers/clock.ts'
import type { Auth } from '../../../helpers/errors.ts'
import { type SeededOrg, seedOrganization } from '../../../helpers/seed.ts'

export { type Auth, type ErrorBody, expectError } from '../../../helpers/errors.ts'

export interface InvoiceLine {
  id: string
  kind: string
  description: string
  plan: string | null
  price_id: string | null
  quantity: number
  unit_amount: number
  amount: number
  period_start: string | null
  period_end: string | null
}

export interface Invoice {
  id: string
  organization_id: string
  subscription_id: string | null
  number: string | null
  status: string
  billing_reason: string
  collection_method: string
  currency: string
  lines: InvoiceLine[]
  subtotal: number
  tax_rate_bps: number
  tax: number
  total: number
  applied_balance: number
  amount_credited: number
  amount_due: number
  amount_paid: number
  amount_remaining: number
  period_start: string | null
  period_end: string | null
  due_date: string | null
  attempt_count: number
  next_payment_attempt: string | null
  customer: { name: string | null; email: string | null; address: string | null }
  description: string | null
  pdf_url: string | null
  status_transitions: {
    finalized_at: string | null
    paid_at: string | null
    voided_at: string | null
    marked_uncollectible_at: string | null
  }
  metadata: Record<string, string>
  created_at: string
  updated_at: string
}

export interface InvoiceEvent {
  id: string
  type: string
  created_at: string
  organization_id: string
  data: { invoice: Invoice; error?: { code: string; message: string } }
}

export interface NewLine {
  description: string
  quantity: number
  unit_amount: number
}

export async function invoicesApp(options: { settings?: Record<string, string>; clock?: FakeClock } = {}) {
  const app = await makeTestApp(options.settings, { clock: options.clock })
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 't' })
  return { app, acme, globex, operator: { authorization: `Bearer ${token}` } as Auth }
}

export function invoicesClient(app: TestApp, operator: Auth) {
  async function send(method: string, path: string, auth: Auth, body?: unknown): Promise<Response> {
    return app.request(path, {
      method,
      headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
  return {
    send,
    /** A one-off draft through the operator's route (201 checked). */
    async draft(org: SeededOrg, lines: NewLine[], extra: Record<string, unknown> = {}): Promise<Invoice> {
      const response = await send('POST', `/api/v1/operator/organizations/${org.org.id}/invoices`, operator, {
        currency: 'usd',
        lines,
        ...extra,
      })
      expect(response.status).toBe(201)
      return json<Invoice>(response)
    },
    /** An operator move: finalize, void, mark-uncollectible (the response as it came). */
    move(id: string, operation: 'finalize' | 'void' | 'mark-uncollectible'): Promise<Response> {
      return send('POST', `/api/v1/operator/invoices/${id}/${operation}`, operator)
    },
    remove(id: string): Promise<Response> {
      return send('DELETE', `/api/v1/operator/invoices/${id}`, operator)
    },
    /** A draft of one line, finalized (200 checked). */
    async open(org: SeededOrg, unitAmount = 1000, extra: Record<string, unknown> = {}): Promise<Invoice> {
      const draft = await this.draft(org, [{ description: 'Services', quantity: 1, unit_amount: unitAmount }], extra)
      const response = await send('POST', `/api/v1/operator/invoices/${draft.id}/finalize`, operator)
      expect(response.status).toBe(200)
      return json<Invoice>(response)
    },
    /** The organization's read, or the operator's without `auth` (its token does not expire with the clock). */
    async get(id: string, auth?: Auth): Promise<Invoice> {
      const response = await send('GET', auth ? `/api/v1/billing/invoices/${id}` : `/api/v1/operator/invoices/${id}`, auth ?? operator)
      expect(response.status).toBe(200)
      return json<Invoice>(response)
    },
  }
}

/** Sets columns of the organization's billing account (made with the defaults first). */
export async function setAccount(app: TestApp, organizationId: string, patch: Partial<BillingAccountsTable>): Promise<void> {
  await app.context.db.write('test.account', async (tx) => {
    await ensureBillingAccountInTx(tx, organizationId, app.clock.now())
    await updateBillingAccountRow(tx, organizationId, patch)
  })
}

export async function accountOf(app: TestApp, organizationId: string): Promise<BillingAccountsTable | undefined> {
  return app.context.db.raw.get<BillingAccountsTable>('SELECT * FROM billing_accounts WHERE organization_id = ?', [organizationId])
}

/** The invoice.* events, in the order they were written. */
export async function invoiceEvents(app: TestApp, invoiceId?: string): Promise<InvoiceEvent[]> {
  const rows = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type LIKE 'invoice.%' ORDER BY id")
  return rows
    .map((row) => JSON.parse(row.body) as InvoiceEvent)
    .filter((event) => invoiceId === undefined || event.data.invoice.id === invoiceId)
}

/** The invoices part's functions as the other billing parts call them, each in its own transaction (as the cron loop). */
export function invoiceFunctions(app: TestApp) {
  const ctx = contextFor(app.context, { kind: 'system', id: 'cron' })
  return {
    pay: (invoiceId: string, amount: number) =>
      ctx.db.write('test.pay', (tx) => applyInvoicePaymentInTx(tx, ctx, { invoiceId, amount, now: app.clock.now() })),
    fail: (invoiceId: string, code = 'card_declined') =>
      ctx.db.write('test.fail', (tx) =>
        recordInvoicePaymentFailureInTx(tx, ctx, { invoiceId, error: { code, message: 'Your card was declined.' }, now: app.clock.now() }),
      ),
    finalize: (invoiceId: string) => ctx.db.write('test.finalize', (tx) => finalizeInvoiceInTx(tx, ctx, invoiceId, app.clock.now())),
    void: (invoiceId: string) => ctx.db.write('test.void', (tx) => voidInvoiceInTx(tx, ctx, invoiceId, app.clock.now())),
    draft: (input: Omit<NewDraftInvoice, 'now'>) =>
      ctx.db.write('test.draft', (tx) => createDraftInvoiceInTx(tx, ctx, { ...input, now: app.clock.now() })),
    /** A one-off draft charged automatically (the operator's route refuses that with the manual provider). */
    charged: (organizationId: string, unitAmount: number) =>
      ctx.db.write('test.draft', (tx) =>
        createDraftInvoiceInTx(tx, ctx, {
          organizationId,
          subscriptionId: null,
          billingReason: 'manual',
          collectionMethod: 'charge_automatically',
          currency: 'usd',
          lines: [{ kind: 'manual', description: 'Item', quantity: 1, unit_amount: unitAmount, amount: unitAmount }],
          periodStart: null,
          periodEnd: null,
          now: app.clock.now(),
        }),
      ),
    due: (limit = 100) => listDueInvoices(app.context.db, app.clock.now(), limit),
  }
}

/**
 * A subscription row for invoices to belong to, written directly (the subscriptions part has its own
 * tests): a Starter price of the organization and an ended monthly subscription on it.
 */
export async function insertSubscription(app: TestApp, organizationId: string): Promise<string> {
  const now = app.clock.now()
  const priceId = `price_${crypto.randomUUID().replaceAll('-', '')}`
  const id = `sub_${crypto.randomUUID().replaceAll('-', '')}`
  await app.context.db.write('test.subscription', async (tx) => {
    await tx.kysely
      .insertInto('plan_prices')
      .values({
        id: priceId,
        plan_id: 'starter',
        organization_id: organizationId,
        currency: 'usd',
        billing_interval: 'month',
        unit_amount: 2900,
        created_at: now,
        deactivated_at: now,
      })
      .execute()
    await tx.kysely
      .insertInto('subscriptions')
      .values({
        id,
        organization_id: organizationId,
        plan_id: 'starter',
        price_id: priceId,
        currency: 'usd',
        billing_interval: 'month',
        unit_amount: 2900,
        quantity: 1,
        status: 'canceled',
        collection_method: 'send_invoice',
        current_period_start: now,
        current_period_end: now + 30 * 86_400_000,
        billing_cycle_anchor: now,
        trial_start: null,
        trial_end: null,
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: now,
        cancellation_reason: 'requested',
        default_payment_method_id: null,
        latest_invoice_id: null,
        past_due_since: null,
        metadata: '{}',
        created_at: now,
        updated_at: now,
      })
      .execute()
  })
  return id
}
