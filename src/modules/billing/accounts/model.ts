// Request and response schemas of an organization's billing settings (the BillingSettings component):
// the organization's routes take its details and dunning choice, the operator's every field.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { oneOf } from '../../../http/schema.ts'
import { RETRIES_EXHAUSTED_ACTIONS } from '../table.ts'
import { MAX_BILLING_ADDRESS, MAX_BILLING_NAME, MAX_DAYS_UNTIL_DUE, MAX_TAX_RATE_BPS } from './settings.ts'

export const BILLING_SETTINGS_EXAMPLE = {
  organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  billing_email: 'accounts@acme.example',
  billing_name: 'Acme Ltd',
  billing_address: '1 Main Street\nLondon EC1A 1AA\nUnited Kingdom',
  on_retries_exhausted: 'canceled',
  tax_rate_bps: 2000,
  days_until_due: 30,
  credit_balance: 0,
  balance_currency: null,
  updated_at: '2026-01-15T09:30:00.000Z',
}

export const BillingSettingsBody = t.Object(
  {
    organization_id: t.String(),
    billing_email: t.Nullable(t.String({ description: 'Where invoices are addressed (printed on them)' })),
    billing_name: t.Nullable(t.String({ description: "Printed on invoices; null: the organization's name" })),
    billing_address: t.Nullable(t.String({ description: 'Printed on invoices (lines separated by \\n)' })),
    on_retries_exhausted: oneOf(RETRIES_EXHAUSTED_ACTIONS, {
      description: 'What a subscription becomes when the last retry of a renewal payment failed: canceled, or unpaid (kept, on Free rates)',
    }),
    tax_rate_bps: Type.Integer({
      description: 'Tax rate in basis points (2000 is 20 %), applied when an invoice is finalized; set by the operator',
    }),
    days_until_due: Type.Integer({
      description: 'Days from finalization to the due date of an invoice sent for payment; set by the operator',
    }),
    credit_balance: Type.Integer({
      description: 'What the organization is owed (a downgrade), in minor units, taken off its next invoices',
    }),
    balance_currency: t.Nullable(t.String({ description: "The credit balance's currency" })),
    updated_at: t.Nullable(t.String({ format: 'date-time', description: 'null while every setting is the default' })),
  },
  { title: 'BillingSettings', examples: [BILLING_SETTINGS_EXAMPLE] },
)

const organizationFields = {
  billing_email: t.Optional(t.Nullable(t.String({ format: 'email', maxLength: 254 }))),
  billing_name: t.Optional(t.Nullable(t.String({ maxLength: MAX_BILLING_NAME }))),
  billing_address: t.Optional(t.Nullable(t.String({ maxLength: MAX_BILLING_ADDRESS }))),
  on_retries_exhausted: t.Optional(oneOf(RETRIES_EXHAUSTED_ACTIONS)),
}

export const UpdateBillingSettingsBody = t.Object(organizationFields, {
  minProperties: 1,
  additionalProperties: false,
  description: "The tax rate and the days until due are the operator's (an unknown field is 400)",
  examples: [{ billing_email: 'accounts@acme.example', on_retries_exhausted: 'unpaid' }],
})

export const OperatorBillingSettingsBody = t.Object(
  {
    ...organizationFields,
    tax_rate_bps: t.Optional(Type.Integer({ minimum: 0, maximum: MAX_TAX_RATE_BPS })),
    days_until_due: t.Optional(Type.Integer({ minimum: 0, maximum: MAX_DAYS_UNTIL_DUE })),
  },
  { minProperties: 1, additionalProperties: false, examples: [{ tax_rate_bps: 2000, days_until_due: 14 }] },
)

export const OrganizationParams = t.Object({ org_id: t.String() })
