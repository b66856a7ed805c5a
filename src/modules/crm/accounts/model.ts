// Request and response schemas of the accounts endpoints (the Account component and its examples).
import { t } from 'elysia'
import { exportSortQuery, listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { CreatedWindow, CustomFields, CustomFieldsOut, Name, OwnerFilter, OwnerId, Tags } from '../model.ts'
import { ACCOUNT_SIZES } from './fields.ts'
import { ACCOUNT_LIST } from './store.ts'

const Domain = t.String({
  maxLength: 2048,
  description: 'A domain name or a URL; stored as its host, lowercased, without `www.`: unique in the organization',
})
const Industry = t.String({ maxLength: 100, description: 'Free text, trimmed; empty means none' })
const Size = oneOf(ACCOUNT_SIZES, { description: 'Head count band' })

export const ACCOUNT_EXAMPLE = {
  id: 'acc_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  name: 'Example Corp',
  domain: 'example.com',
  industry: 'Logistics',
  size: '51-200',
  owner_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  tags: ['enterprise'],
  custom_fields: { region: 'emea' },
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-16T14:05:00.000Z',
}

export const AccountBody = t.Object(
  {
    id: t.String({ examples: [ACCOUNT_EXAMPLE.id] }),
    name: t.String(),
    domain: t.Nullable(t.String()),
    industry: t.Nullable(t.String()),
    size: t.Nullable(Size),
    owner_id: t.Nullable(t.String()),
    tags: t.Array(t.String()),
    custom_fields: CustomFieldsOut,
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  },
  { title: 'Account', examples: [ACCOUNT_EXAMPLE] },
)

export const CreateAccountBody = t.Object(
  {
    name: Name,
    domain: t.Optional(t.Nullable(Domain)),
    industry: t.Optional(t.Nullable(Industry)),
    size: t.Optional(t.Nullable(Size)),
    owner_id: t.Optional(t.Nullable(OwnerId)),
    tags: t.Optional(Tags),
    custom_fields: t.Optional(CustomFields),
  },
  {
    examples: [
      { name: 'Example Corp', domain: 'https://www.Example.com/about', industry: 'Logistics', size: '51-200', tags: ['enterprise'] },
    ],
  },
)

export const UpdateAccountBody = t.Object(
  {
    name: t.Optional(Name),
    domain: t.Optional(t.Nullable(Domain)),
    industry: t.Optional(t.Nullable(Industry)),
    size: t.Optional(t.Nullable(Size)),
    owner_id: t.Optional(t.Nullable(OwnerId)),
    tags: t.Optional(Tags),
    custom_fields: t.Optional(CustomFields),
  },
  { minProperties: 1, examples: [{ size: '201-1000', owner_id: null }] },
)

const accountFilters = {
  owner_id: t.Optional(OwnerFilter),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  q: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'Prefix of the name (case and accents ignored) or of the domain' })),
  ...CreatedWindow,
}

export const AccountListQuery = t.Object({ ...accountFilters, ...pagingQuery(ACCOUNT_LIST.sorts) })

export const AccountExportQuery = t.Object({ ...accountFilters, ...exportSortQuery(ACCOUNT_LIST.sorts) })

export const DeleteAccountQuery = t.Object({
  cascade: t.Optional(
    oneOf(['detach'], {
      description: 'detach: the account goes and its contacts stay, without an account (default: 409 while it has contacts)',
    }),
  ),
})

export const AccountList = listResponse('accounts', AccountBody)
