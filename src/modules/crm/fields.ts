// The field rules accounts and contacts share: tags (trimmed, lowercased, once each), custom fields
// (scalars, 8 KiB as JSON), optional text (trimmed, '' is none) and an owner who is an active user of
// the organization.
import type { Queries } from '../../db/database.ts'
import { validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { findUserInOrg } from '../users/index.ts'

export const MAX_TAGS = 20
export const MAX_CUSTOM_FIELDS_BYTES = 8 * 1024

/** Tags are stored lowercased, once each, in the order given (the schema bounds their number and shape). */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim().toLowerCase()))]
}

/** The custom fields as stored (JSON text), or 400 when they are larger than the limit. */
export function checkCustomFields(fields: Record<string, unknown>): string {
  const text = JSON.stringify(fields)
  if (Buffer.byteLength(text) > MAX_CUSTOM_FIELDS_BYTES)
    throw validationError([{ field: 'custom_fields', message: `must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON` }])
  return text
}

/** Trimmed; null (not '') when nothing is left, so that "no industry" has one spelling. */
export function trimmedOrNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/** An owner must be an active user of the same organization (another organization's user is as unknown). */
export async function assertOwner(db: Queries, organizationId: string, userId: string): Promise<void> {
  if ((await findUserInOrg(db, organizationId, userId))?.status !== 'active')
    throw validationError([{ field: 'owner_id', message: 'is not an active user of this organization' }])
}

/** The fields whose value differs between two versions of a row (for `changed` and the audit record). */
export function changedFields<F extends string>(before: Record<F, unknown>, after: Record<F, unknown>, fields: readonly F[]): F[] {
  return fields.filter((field) => before[field] !== after[field])
}

/** A list's RFC 3339 filter as milliseconds, or 400 naming it. */
export function timeFilter(field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const ms = parseDateTime(text)
  if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
  return ms
}
