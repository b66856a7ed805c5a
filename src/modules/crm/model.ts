// Request schemas the CRM's parts share: tags, custom fields and owner (as tickets spell them).
import { t } from 'elysia'
import { MAX_TAGS } from './fields.ts'

export const Tags = t.Array(
  t.String({ minLength: 1, maxLength: 50, pattern: '^[^\\s,]+$', description: 'No spaces or commas; stored lowercased' }),
  { maxItems: MAX_TAGS, description: `Up to ${MAX_TAGS}; stored lowercased, once each` },
)

// additionalProperties: false, or keys outside the pattern (and their values) would go unchecked.
export const CustomFields = t.Record(
  t.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
  t.Union([t.String({ maxLength: 1000 }), t.Number(), t.Boolean()]),
  { additionalProperties: false, maxProperties: 50, description: 'Up to 50 scalar values (string, number, boolean), 8 KiB in all' },
)

export const CustomFieldsOut = t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean()]))

export const OwnerId = t.String({ minLength: 1, maxLength: 64, description: 'An active user of the organization, or null for nobody' })

/** A list filter on the owner: a user id, or "none" for the unowned. */
export const OwnerFilter = t.String({ minLength: 1, maxLength: 64, description: 'A user id, or "none" for those nobody owns' })

export const Name = t.String({ minLength: 1, maxLength: 200, pattern: '\\S' })

export const IdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const CreatedWindow = {
  created_after: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only those created after it' })),
  created_before: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only those created before it' })),
}
