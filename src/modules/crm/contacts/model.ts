// Request and response schemas of the contacts endpoints (the Contact and ContactWithAccount components).
import { t } from 'elysia'
import { exportSortQuery, listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { ACCOUNT_EXAMPLE, AccountBody } from '../accounts/model.ts'
import { CreatedWindow, CustomFields, CustomFieldsOut, Name, OwnerFilter, OwnerId, Tags } from '../model.ts'
import { CONTACT_TYPES } from '../table.ts'
import { CONTACT_LIST } from './store.ts'

const Email = t.String({ format: 'email', maxLength: 254, description: 'Unique in the organization, case ignored; stored lowercased' })
const Phone = t.String({
  maxLength: 40,
  description: 'With its country code (+…; spaces, dashes and brackets allowed); stored in E.164; unique in the organization',
})
const ExternalId = t.String({ maxLength: 200, description: 'Your system’s id of this person; unique in the organization, case kept' })
const AccountId = t.String({ minLength: 1, maxLength: 64, description: 'An account of the organization, or null' })
const ConsentIn = t.Object(
  { email: t.Optional(t.Boolean()), sms: t.Optional(t.Boolean()), marketing: t.Optional(t.Boolean()) },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'true gives consent on the channel, false withdraws it; channels left out stay as they are',
  },
)
const ConsentEntry = t.Object({
  granted: t.Boolean(),
  at: t.Nullable(t.String({ format: 'date-time', description: 'When it was last given or withdrawn; null if never asked' })),
})
// Named so a client setting it learns why instead of seeing it silently dropped.
const ReadOnly = t.Optional(t.Never({ error: 'is read-only: it moves when a ticket of the contact is created' }))

export const CONTACT_EXAMPLE = {
  id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  name: 'Grace Customer',
  email: 'grace@example.com',
  phone: '+14155550123',
  external_id: 'crm-4711',
  contact_type: 'customer',
  account_id: ACCOUNT_EXAMPLE.id,
  owner_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  blocked: false,
  consent: {
    email: { granted: true, at: '2026-01-15T09:30:00.000Z' },
    sms: { granted: false, at: null },
    marketing: { granted: false, at: '2026-01-16T14:05:00.000Z' },
  },
  tags: ['vip'],
  custom_fields: { plan: 'gold' },
  last_activity_at: '2026-01-16T14:05:00.000Z',
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-16T14:05:00.000Z',
}

const contactProperties = {
  id: t.String({ examples: [CONTACT_EXAMPLE.id] }),
  name: t.String(),
  email: t.Nullable(t.String()),
  phone: t.Nullable(t.String({ description: 'E.164' })),
  external_id: t.Nullable(t.String()),
  contact_type: oneOf(CONTACT_TYPES),
  account_id: t.Nullable(t.String()),
  owner_id: t.Nullable(t.String()),
  blocked: t.Boolean(),
  consent: t.Object({ email: ConsentEntry, sms: ConsentEntry, marketing: ConsentEntry }),
  tags: t.Array(t.String()),
  custom_fields: CustomFieldsOut,
  last_activity_at: t.Nullable(t.String({ format: 'date-time', description: 'When a ticket of theirs was last created' })),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
}

export const ContactBody = t.Object(contactProperties, { title: 'Contact', examples: [CONTACT_EXAMPLE] })

export const ContactWithAccountBody = t.Object(
  { ...contactProperties, account: t.Nullable(AccountBody) },
  { title: 'ContactWithAccount', examples: [{ ...CONTACT_EXAMPLE, account: ACCOUNT_EXAMPLE }] },
)

const writable = {
  email: t.Optional(t.Nullable(Email)),
  phone: t.Optional(t.Nullable(Phone)),
  external_id: t.Optional(t.Nullable(ExternalId)),
  contact_type: t.Optional(oneOf(CONTACT_TYPES, { description: 'Default visitor' })),
  account_id: t.Optional(t.Nullable(AccountId)),
  owner_id: t.Optional(t.Nullable(OwnerId)),
  blocked: t.Optional(t.Boolean()),
  consent: t.Optional(ConsentIn),
  tags: t.Optional(Tags),
  custom_fields: t.Optional(CustomFields),
  last_activity_at: ReadOnly,
}

export const CreateContactBody = t.Object(
  { name: Name, ...writable },
  {
    examples: [
      { name: 'Grace Customer', email: 'Grace@Example.com', phone: '+1 415 555 0123', contact_type: 'customer', consent: { email: true } },
    ],
  },
)

export const UpdateContactBody = t.Object(
  { name: t.Optional(Name), ...writable },
  { minProperties: 1, examples: [{ phone: '+44 20 7946 0958', consent: { marketing: false } }] },
)

export const MergeContactBody = t.Object(
  { other_id: t.String({ minLength: 1, maxLength: 64, description: 'The contact folded into this one' }) },
  { examples: [{ other_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QA' }] },
)

const contactFilters = {
  account_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'An account id, or "none" for contacts without one' })),
  owner_id: t.Optional(OwnerFilter),
  contact_type: t.Optional(oneOf(CONTACT_TYPES)),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  blocked: t.Optional(t.Boolean()),
  q: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 200,
      description: 'Prefix of the name (case and accents ignored), the e-mail, the phone number (+4420…) or the external id',
    }),
  ),
  ...CreatedWindow,
}

export const ContactListQuery = t.Object({ ...contactFilters, ...pagingQuery(CONTACT_LIST.sorts) })

export const ContactExportQuery = t.Object({ ...contactFilters, ...exportSortQuery(CONTACT_LIST.sorts) })

export const ContactImportQuery = t.Object({
  dry_run: t.Optional(t.Boolean({ description: 'true: check every row as an import would, and write nothing' })),
})

const REFUSAL_EXAMPLE = {
  row: 7,
  line: 7,
  errors: [{ field: 'phone', message: 'must be a valid phone number with its country code, e.g. +14155550123' }],
}

export const ContactImportReport = t.Object(
  {
    dry_run: t.Boolean(),
    total_rows: t.Integer({ description: 'Data rows of the file (the header not counted)' }),
    accepted_count: t.Integer(),
    refused_count: t.Integer(),
    accepted: t.Array(
      t.Object({
        row: t.Integer({ description: 'The row as a spreadsheet numbers it: the header is row 1' }),
        line: t.Integer({ description: 'The line of the file where the row ends' }),
        id: t.Nullable(t.String({ description: 'The new contact; null in a dry run' })),
      }),
    ),
    refused: t.Array(
      t.Object({
        row: t.Integer(),
        line: t.Integer(),
        errors: t.Array(t.Object({ field: t.String({ description: 'The column' }), message: t.String() })),
      }),
    ),
  },
  {
    title: 'ContactImportReport',
    examples: [
      {
        dry_run: false,
        total_rows: 2,
        accepted_count: 1,
        refused_count: 1,
        accepted: [{ row: 2, line: 2, id: CONTACT_EXAMPLE.id }],
        refused: [{ ...REFUSAL_EXAMPLE, row: 3, line: 3 }],
      },
    ],
  },
)

export const ContactList = listResponse('contacts', ContactBody)
