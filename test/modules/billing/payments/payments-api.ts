// What the payments tests share: an app (manual provider, or Stripe through the fake Stripe server)
// with two organizations and an operator token, invoices opened through the operator's routes, the
// payment as a client reads it, requests as a client sends them, and the payment events as written.
import { afterAll } from 'bun:test'
import { json, type TestApp } from '../../../helpers/app.ts'
import type { FakeClock } from '../../../helpers/clock.ts'
import type { Auth } from '../../../helpers/errors.ts'
import { type StripeServer, startStripeServer } from '../../../helpers/stripe-server.ts'
import { invoicesApp, invoicesClient } from '../invoices/invoices-api.ts'

export { type Auth, type ErrorBody, expectError } from '../../../helpers/errors.ts'
export type { Invoice } from '../invoices/invoices-api.ts'

export interface Refund {
  id: string
  payment_id: string
  amount: number
  currency: string
  status: string
  reason: string | null
  created_at: string
}

export interface Payment {
  id: string
  organization_id: string
  invoice_id: string | null
  amount: number
  currency: string
  status: string
  provider: string
  provider_payment_id: string | null
  payment_method: { type: string; last4: string | null; brand: string | null } | null
  reference: string | null
  last_error: { code: string; message: string } | null
  attempts: { attempted_at: string; outcome: string; error: { code: string; message: string } | null }[]
  amount_refunded: number
  refunds: Refund[]
  succeeded_at: string | null
  canceled_at: string | null
  created_at: string
  updated_at: string
}

export interface PaymentEvent {
  id: string
  type: string
  organization_id: string
  data: { payment: Payment; error?: { code: string; message: string } }
}

/**
 * A copy to match against: Bun's toMatchObject writes its asymmetric matchers (expect.any, …) into the
 * object it checks, which a later comparison would then read instead of the values.
 */
export function copy<T>(value: T): T {
  return structuredClone(value)
}

/** An app on the manual provider, or on Stripe (the fake server, closed after the file's tests). */
export async function paymentsApp(options: { stripe?: boolean; clock?: FakeClock } = {}) {
  let stripe: StripeServer | undefined
  if (options.stripe) {
    stripe = await startStripeServer()
    afterAll(() => stripe?.close())
  }
  const made = await invoicesApp({ settings: stripe?.settings, clock: options.clock })
  const invoices = invoicesClient(made.app, made.operator)
  return { ...made, stripe, invoices, ...paymentsClient(made.operator, invoices.send) }
}

export function paymentsClient(operator: Auth, send: ReturnType<typeof invoicesClient>['send']) {
  return {
    pay: (invoiceId: string, auth: Auth, body: Record<string, unknown>) =>
      send('POST', `/api/v1/billing/invoices/${invoiceId}/pay`, auth, body),
    record: (invoiceId: string, body: Record<string, unknown>) =>
      send('POST', `/api/v1/operator/invoices/${invoiceId}/payments`, operator, body),
    confirm: (paymentId: string) => send('POST', `/api/v1/operator/payments/${paymentId}/confirm`, operator),
    cancel: (paymentId: string) => send('POST', `/api/v1/operator/payments/${paymentId}/cancel`, operator),
    refund: (paymentId: string, body: Record<string, unknown> = {}) =>
      send('POST', `/api/v1/operator/payments/${paymentId}/refunds`, operator, body),
    async payment(id: string, auth: Auth): Promise<Payment> {
      const response = await send('GET', `/api/v1/billing/payments/${id}`, auth)
      if (response.status !== 200) throw new Error(`GET payment ${id}: ${response.status} ${await response.text()}`)
      return json<Payment>(response)
    },
    async payments(auth: Auth, query = ''): Promise<{ payments: Payment[]; next_page_token: string; total_count?: number }> {
      const response = await send('GET', `/api/v1/billing/payments${query}`, auth)
      if (response.status !== 200) throw new Error(`GET payments: ${response.status} ${await response.text()}`)
      return json(response)
    },
  }
}

/** The payment.* events, in the order they were written. */
export async function paymentEvents(app: TestApp, paymentId?: string): Promise<PaymentEvent[]> {
  const rows = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type LIKE 'payment.%' ORDER BY id")
  return rows.map((row) => JSON.parse(row.body) as PaymentEvent).filter((e) => paymentId === undefined || e.data.payment.id === paymentId)
}

/** The types of every event of the invoice and its payments, in order. */
export async function eventTypes(app: TestApp): Promise<string[]> {
  const rows = await app.context.db.raw.all<{ type: string }>(
    "SELECT type FROM events WHERE type LIKE 'payment.%' OR type LIKE 'invoice.%' ORDER BY id",
  )
  return rows.map((r) => r.type)
}

export async function auditEvents(app: TestApp, targetId: string): Promise<string[]> {
  const rows = await app.context.db.raw.all<{ event: string }>('SELECT event FROM audit_logs WHERE target_id = ? ORDER BY seq', [targetId])
  return rows.map((r) => r.event)
}
