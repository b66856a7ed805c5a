// Request and response schemas of the invoices endpoints (the Invoice component): money in integer
// minor units, currencies lowercase, times RFC 3339 or null.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { BILLING_REASONS, COLLECTION_METHODS, INVOICE_STATUSES, LINE_KINDS, PLAN_IDS } from '../table.ts'
import { INVOICE_LIST } from './store.ts'

const Time = t.String({ format: 'date-time' })
const Money = (description: string) => Type.Integer({ description: `${description} (minor units)` })

export const INVOICE_EXAMPLE = {
  id: 'in_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  subscription_id: 'sub_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  number: 'INV-000003',
  status: 'paid',
  billing_reason: 'subscription_cycle',
  collection_method: 'charge_automatically',
  currency: 'usd',
  lines: [
    {
      id: 'il_01KAX3M6W9P8T2V5G7H4J3C1QZ',
      kind: 'subscription',
      description: 'Starter × 3 seats (month)',
      plan: 'starter',
      price_id: 'price_01KAX3M6W9P8T2V5G7H4J3C1QZ',
      quantity: 3,
      unit_amount: 2900,
      amount: 8700,
      period_start: '2026-03-01T00:00:00.000Z',
      period_end: '2026-04-01T00:00:00.000Z',
    },
  ],
  subtotal: 8700,
  tax_rate_bps: 2000,
  tax: 1740,
  total: 10440,
  applied_balance: 0,
  amount_credited: 0,
  amount_due: 10440,
  amount_paid: 10440,
  amount_remaining: 0,
  period_start: '2026-03-01T00:00:00.000Z',
  period_end: '2026-04-01T00:00:00.000Z',
  due_date: '2026-03-01T00:00:00.000Z',
  attempt_count: 0,
  next_payment_attempt: null,
  customer: { name: 'Acme Ltd', email: 'billing@acme.example', address: '1 Main Street\nSpringfield' },
  description: null,
  pdf_url: '/api/v1/billing/invoices/in_01KAX3M6W9P8T2V5G7H4J3C1QZ/pdf',
  status_transitions: {
    finalized_at: '2026-03-01T00:00:00.000Z',
    paid_at: '2026-03-01T00:00:02.000Z',
    voided_at: null,
    marked_uncollectible_at: null,
  },
  metadata: {},
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:02.000Z',
}

export const InvoiceLineBody = t.Object({
  id: t.String(),
  kind: oneOf(LINE_KINDS, { description: 'subscription: a period of the plan; proration: a plan or seat change; manual: the operator’s' }),
  description: t.String(),
  plan: t.Nullable(oneOf(PLAN_IDS)),
  price_id: t.Nullable(t.String()),
  quantity: Type.Integer(),
  unit_amount: Money('Per unit; negative for a credit'),
  amount: Money('Negative for a credit (the unused part of the old plan)'),
  period_start: t.Nullable(Time),
  period_end: t.Nullable(Time),
})

export const InvoiceBody = t.Object(
  {
    id: t.String(),
    organization_id: t.String(),
    subscription_id: t.Nullable(t.String()),
    number: t.Nullable(t.String({ description: 'INV-000001, …: assigned on finalization, gap-free per organization; null while draft' })),
    status: oneOf(INVOICE_STATUSES),
    billing_reason: oneOf(BILLING_REASONS),
    collection_method: oneOf(COLLECTION_METHODS),
    currency: t.String({ description: 'Lowercase ISO 4217' }),
    lines: t.Array(InvoiceLineBody),
    subtotal: Money('The sum of the lines'),
    tax_rate_bps: Type.Integer({ description: 'The tax rate in basis points (2000 = 20 %), the account’s at finalization' }),
    tax: Money('subtotal × rate, rounded half away from zero'),
    total: Money('subtotal + tax'),
    applied_balance: Money(
      "Credit balance taken off the total; negative: a negative total taken off the invoice (to what its subscription still owes for that time, the rest to the organization's credit balance)",
    ),
    amount_credited: Money(
      "Unused time of a later plan or seat change taken off this invoice while it was still owed (as Stripe's pre_payment_credit_notes_amount), instead of becoming account credit",
    ),
    amount_due: Money('What the organization owes: total - applied_balance - amount_credited'),
    amount_paid: Money('Paid so far'),
    amount_remaining: Money('amount_due - amount_paid'),
    period_start: t.Nullable(Time),
    period_end: t.Nullable(Time),
    due_date: t.Nullable(t.String({ format: 'date-time', description: 'Set on finalization' })),
    attempt_count: Type.Integer({ description: 'Failed payment attempts' }),
    next_payment_attempt: t.Nullable(t.String({ format: 'date-time', description: 'When the cron loop next tries to collect it' })),
    customer: t.Object({ name: t.Nullable(t.String()), email: t.Nullable(t.String()), address: t.Nullable(t.String()) }),
    description: t.Nullable(t.String()),
    pdf_url: t.Nullable(t.String({ description: 'The path of its PDF; null while draft' })),
    status_transitions: t.Object({
      finalized_at: t.Nullable(Time),
      paid_at: t.Nullable(Time),
      voided_at: t.Nullable(Time),
      marked_uncollectible_at: t.Nullable(Time),
    }),
    metadata: t.Record(t.String(), t.String()),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Invoice', examples: [INVOICE_EXAMPLE] },
)

export const InvoiceIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const OrganizationIdParams = t.Object({ org_id: t.String({ maxLength: 64 }) })

const TimeFilter = (description: string) => t.Optional(t.String({ format: 'date-time', description: `RFC 3339; ${description}` }))

export const InvoiceListQuery = t.Object({
  status: t.Optional(oneOf(INVOICE_STATUSES)),
  subscription_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  created_after: TimeFilter('only invoices created after it'),
  created_before: TimeFilter('only invoices created before it'),
  due_date_after: TimeFilter('only invoices due after it'),
  due_date_before: TimeFilter('only invoices due before it'),
  ...pagingQuery(INVOICE_LIST.sorts),
})

export const InvoiceList = listResponse('invoices', InvoiceBody)

export const CreateInvoiceBody = t.Object(
  {
    currency: t.String({ minLength: 3, maxLength: 3, description: 'ISO 4217, any case (stored lowercase)' }),
    collection_method: t.Optional(
      oneOf(COLLECTION_METHODS, {
        description:
          'Default charge_automatically with the Stripe provider, send_invoice with the manual one (charge_automatically there is 400: nothing would charge it)',
      }),
    ),
    description: t.Optional(t.Nullable(t.String({ maxLength: 500 }))),
    lines: t.Array(
      t.Object({
        description: t.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
        quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
        unit_amount: Type.Integer({ minimum: -1e12, maximum: 1e12, description: 'Minor units; negative for a credit' }),
      }),
      { minItems: 1, maxItems: 100 },
    ),
  },
  {
    examples: [
      { currency: 'usd', description: 'Onboarding', lines: [{ description: 'Setup and training', quantity: 1, unit_amount: 50000 }] },
    ],
  },
)
