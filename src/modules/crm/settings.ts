// The CRM module's settings (assembled by src/config.ts): the limits of a contacts CSV import.
import { Type, type TSchema } from '@sinclair/typebox'
import { MiB, type SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  IMPORT_MAX_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 1024 * MiB,
    default: 20 * MiB,
    description:
      "Largest CSV file `POST /api/v1/contacts/import` accepts, in bytes (1024 to 1 GiB): 413 before it is read when its `Content-Length` says so, as soon as the limit is passed when it is sent chunked. Bun's own cap is the larger of this and `MAX_BODY_BYTES`, plus 4 MiB.",
  }),
  IMPORT_MAX_ROWS: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 10_000,
    description:
      'Most data rows one CSV import may hold (1 to 100,000); a file with more is refused with 413 and imports nothing. An import writes in one transaction, holding the database writer while it does (other writes wait for it): see "Import and export".',
  }),
} satisfies Record<string, TSchema>

export interface CrmSlice {
  readonly importMaxBytes: number
  readonly importMaxRows: number
}

export function crmSlice(values: SettingValues): CrmSlice {
  return { importMaxBytes: values.IMPORT_MAX_BYTES as number, importMaxRows: values.IMPORT_MAX_ROWS as number }
}
