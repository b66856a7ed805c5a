// Request and response schemas of the leads endpoints (the Lead and LeadConversion components).
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { ACCOUNT_EXAMPLE, AccountBody, CreateAccountBody } from '../accounts/model.ts'
import { CONTACT_EXAMPLE, ContactBody, CreateContactBody } from '../contacts/model.ts'
import { CreatedWindow, IdParams, Name, OwnerFilter, OwnerId } from '../model.ts'
import { INITIAL_LEAD_STATUSES, LEAD_STATUSES } from './lifecycle.ts'
import { LEAD_LIST } from './store.ts'

const Email = t.String({ format: 'email', maxLength: 254, description: 'Stored lowercased' })
const Phone = t.String({
  minLength: 1,
  maxLength: 40,
  description: 'With its country code (spaces, dashes and brackets allowed); stored in E.164, e.g. +4915112345678',
})
const CompanyName = t.String({ maxLength: 200 })
const Source = t.String({ maxLength: 100, description: 'Free text (e.g. web, referral, trade-show-2026), trimmed; empty means none' })
const Score = t.Integer({ minimum: 0, maximum: 100 })
// Named so a client setting them learns why instead of seeing them silently dropped.
const ReadOnly = t.Optional(t.Never({ error: 'is read-only: it is set by POST /api/v1/leads/{id}/convert' }))

export const LEAD_EXAMPLE = {
  id: 'lea_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  phone: '+4915112345678',
  company_name: 'Example GmbH',
  source: 'web',
  score: 72,
  status: 'qualified',
  owner_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  converted_at: null,
  converted_contact_id: null,
  converted_account_id: null,
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-16T14:05:00.000Z',
}

export const LeadBody = t.Object(
  {
    id: t.String({ examples: [LEAD_EXAMPLE.id] }),
    name: t.String(),
    email: t.Nullable(t.String()),
    phone: t.Nullable(t.String({ description: 'E.164' })),
    company_name: t.Nullable(t.String()),
    source: t.Nullable(t.String()),
    score: t.Integer({ minimum: 0, maximum: 100, description: '0 until scored' }),
    status: oneOf(LEAD_STATUSES),
    owner_id: t.Nullable(t.String()),
    converted_at: t.Nullable(t.String({ format: 'date-time' })),
    converted_contact_id: t.Nullable(t.String()),
    converted_account_id: t.Nullable(t.String()),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  },
  { title: 'Lead', examples: [LEAD_EXAMPLE] },
)

export const CreateLeadBody = t.Object(
  {
    name: Name,
    email: t.Optional(t.Nullable(Email)),
    phone: t.Optional(t.Nullable(Phone)),
    company_name: t.Optional(t.Nullable(CompanyName)),
    source: t.Optional(t.Nullable(Source)),
    score: t.Optional(Score),
    status: t.Optional(oneOf(INITIAL_LEAD_STATUSES, { description: 'Default new; converted only by the convert operation' })),
    owner_id: t.Optional(t.Nullable(OwnerId)),
    converted_at: ReadOnly,
    converted_contact_id: ReadOnly,
    converted_account_id: ReadOnly,
  },
  {
    examples: [
      {
        name: 'Grace Hopper',
        email: 'Grace@Example.com',
        phone: '+49 151 12345678',
        company_name: 'Example GmbH',
        source: 'web',
        score: 40,
      },
    ],
  },
)

export const UpdateLeadBody = t.Object(
  {
    name: t.Optional(Name),
    email: t.Optional(t.Nullable(Email)),
    phone: t.Optional(t.Nullable(Phone)),
    company_name: t.Optional(t.Nullable(CompanyName)),
    source: t.Optional(t.Nullable(Source)),
    score: t.Optional(Score),
    status: t.Optional(oneOf(LEAD_STATUSES, { description: 'Follows the lifecycle; converted only by the convert operation' })),
    owner_id: t.Optional(t.Nullable(OwnerId)),
    converted_at: ReadOnly,
    converted_contact_id: ReadOnly,
    converted_account_id: ReadOnly,
  },
  { minProperties: 1, examples: [{ status: 'contacted', score: 55 }] },
)

export const LeadIdParams = IdParams

export const LEAD_SORTS = LEAD_LIST.sorts

export const LeadListQuery = t.Object({
  status: t.Optional(oneOf(LEAD_STATUSES)),
  owner_id: t.Optional(OwnerFilter),
  source: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'Exactly as stored (trimmed)' })),
  q: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'Prefix of the name (case and accents ignored) or of the e-mail' })),
  score_min: t.Optional(t.Integer({ minimum: 0, maximum: 100, 'x-field': 'score_min', description: 'Inclusive' })),
  score_max: t.Optional(t.Integer({ minimum: 0, maximum: 100, 'x-field': 'score_max', description: 'Inclusive' })),
  ...CreatedWindow,
  ...pagingQuery(LEAD_SORTS),
})

export const LeadList = listResponse('leads', LeadBody)

// The conversion. Each of account and contact names an existing one by id or describes one to create;
// the fields left out of `create` come from the lead.
const { name: _accountName, ...accountFields } = CreateAccountBody.properties
const AccountCreate = t.Object(
  { name: t.Optional(Name), ...accountFields },
  { description: "name defaults to the lead's company_name; an account of the organization with this domain is used instead" },
)
const { name: _contactName, account_id: _accountId, ...contactFields } = CreateContactBody.properties
const ContactCreate = t.Object(
  {
    name: t.Optional(Name),
    ...contactFields,
    account_id: t.Optional(t.Never({ error: 'is the account of the conversion: give it as account' })),
  },
  {
    description:
      "name, email, phone and owner_id default to the lead's; contact_type to customer. A contact of the organization with this e-mail (else this phone) is used instead",
  },
)
const Reference = t.String({ minLength: 1, maxLength: 64 })
const ONE_OF = 'Exactly one of id (an existing one) and create'

export const ConvertLeadBody = t.Object(
  {
    account: t.Optional(
      t.Nullable(
        t.Object({ id: t.Optional(Reference), create: t.Optional(AccountCreate) }, { description: `${ONE_OF}; null: no account` }),
      ),
    ),
    contact: t.Object({ id: t.Optional(Reference), create: t.Optional(ContactCreate) }, { description: ONE_OF }),
  },
  {
    examples: [
      { account: { create: { domain: 'example.com', size: '51-200' } }, contact: { create: { consent: { email: true } } } },
      { account: { id: 'acc_01KAX3M6W9P8T2V5G7H4J3C1QZ' }, contact: { id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ' } },
      { account: null, contact: { create: {} } },
    ],
  },
)

// Made of the contacts' and accounts' own examples, so the documented conversion is consistent; also
// crm.contact.lead_converted's webhook example and test send.
export const LEAD_CONVERSION_EXAMPLE = {
  lead: {
    ...LEAD_EXAMPLE,
    status: 'converted',
    converted_at: '2026-01-17T10:00:00.000Z',
    converted_contact_id: CONTACT_EXAMPLE.id,
    converted_account_id: ACCOUNT_EXAMPLE.id,
    updated_at: '2026-01-17T10:00:00.000Z',
  },
  contact: CONTACT_EXAMPLE,
  account: ACCOUNT_EXAMPLE,
}

export const LeadConversionBody = t.Object(
  {
    lead: LeadBody,
    contact: t.Nullable(ContactBody, { description: 'null only when the contact was deleted after the conversion' }),
    account: t.Nullable(AccountBody),
  },
  { title: 'LeadConversion', examples: [LEAD_CONVERSION_EXAMPLE] },
)
