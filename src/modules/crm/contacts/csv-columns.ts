// The contacts' CSV columns, one list for the export and the import: what an export writes imports
// back (into another organization too, through account_domain and owner_email), and a row of cells
// becomes the input of createContact with every error of the row named by its column.
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { FieldError } from '../../../errors.ts'
import { type ValueErrorLike, valueFieldErrors } from '../../../lib/value-errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { type Cell, customFieldsCell, tagsCell, tagsOfCell, unescapeCell } from '../csv.ts'
import type { ContactsTable } from '../table.ts'
import { CONSENT_CHANNELS, type ConsentChannel, consentJson } from './consent.ts'
import type { NewContact } from './create-contact.ts'
import { CreateContactBody } from './model.ts'

/** What an export writes, in order. */
export const EXPORT_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'external_id',
  'contact_type',
  'account_id',
  'account_domain',
  'owner_id',
  'owner_email',
  'blocked',
  'tags',
  'custom_fields',
  'consent_email',
  'consent_email_at',
  'consent_sms',
  'consent_sms_at',
  'consent_marketing',
  'consent_marketing_at',
  'last_activity_at',
  'created_at',
  'updated_at',
] as const

/** Columns an export writes that an import reads past: ids and times of the organization they came from. */
const IGNORED_ON_IMPORT = new Set<string>(['id', 'last_activity_at', 'created_at', 'updated_at'])

export const IMPORT_COLUMNS: readonly string[] = EXPORT_COLUMNS.filter((c) => !IGNORED_ON_IMPORT.has(c))

/** The export's cells of one contact; its account's domain and owner's e-mail looked up by the caller. */
export function exportCells(row: ContactsTable, accountDomain: string | null, ownerEmail: string | null): Cell[] {
  const consent = consentJson(row.consent)
  const lastActivity = Number(row.last_activity_at)
  return [
    row.id,
    row.name,
    row.email,
    row.phone,
    row.external_id,
    row.contact_type,
    row.account_id,
    accountDomain,
    row.owner_id,
    ownerEmail,
    Boolean(row.blocked),
    tagsCell(row.tags),
    customFieldsCell(row.custom_fields),
    ...CONSENT_CHANNELS.flatMap((c) => (consent[c].at === null ? [null, null] : [consent[c].granted, consent[c].at])),
    lastActivity === 0 ? null : isoTime(lastActivity),
    isoTime(row.created_at),
    isoTime(row.updated_at),
  ]
}

/**
 * The columns of a header, or the errors that refuse the whole file: a column we do not know (a
 * misspelt one would be lost without a word), one named twice, no `name`.
 */
export function headerColumns(header: readonly string[]): { columns: string[] } | { errors: FieldError[] } {
  const columns = header.map((cell) => cell.trim().toLowerCase())
  const errors: FieldError[] = []
  columns.forEach((column, i) => {
    if (!IMPORT_COLUMNS.includes(column) && !IGNORED_ON_IMPORT.has(column))
      errors.push({
        field: `header.${i + 1}`,
        message: `${JSON.stringify(header[i])} is not a column of contacts; known: ${IMPORT_COLUMNS.join(', ')}`,
      })
    else if (columns.indexOf(column) !== i) errors.push({ field: `header.${i + 1}`, message: `${column} is named twice` })
  })
  if (!columns.includes('name')) errors.push({ field: 'header', message: 'must have a name column' })
  return errors.length > 0 ? { errors } : { columns }
}

/** What an import row asks for: createContact's input, and the references an import may give by name. */
export interface ImportedContact {
  input: NewContact
  /** Decides the account when given (an export's account_id means nothing in another organization). */
  accountDomain: string | null
  /** Decides the owner when given, as accountDomain the account. */
  ownerEmail: string | null
}

// Compiled once: an import checks every row against it.
const NEW_CONTACT = TypeCompiler.Compile(CreateContactBody)

const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false }

/** One data row (cells in header order): the contact it asks for, or every error found, each naming its column. */
export function importedContact(
  columns: readonly string[],
  cells: readonly string[],
  now: number,
): ImportedContact | { errors: FieldError[] } {
  if (cells.length !== columns.length)
    return { errors: [{ field: 'row', message: `has ${cells.length} cells; the header has ${columns.length}` }] }
  const errors: FieldError[] = []
  const given = new Map<string, string>()
  columns.forEach((column, i) => {
    const cell = unescapeCell(cells[i]!.trim())
    if (cell.includes('\0')) errors.push({ field: column, message: 'must not contain the NUL character (U+0000)' })
    else if (cell !== '' && !IGNORED_ON_IMPORT.has(column)) given.set(column, cell)
  })
  const flag = (column: string): boolean | undefined => {
    const cell = given.get(column)
    if (cell === undefined) return undefined
    const value = BOOLEANS[cell.toLowerCase()]
    if (value === undefined) errors.push({ field: column, message: 'must be true or false' })
    return value
  }
  const input: Record<string, unknown> = { name: given.get('name') ?? '' }
  for (const column of ['email', 'phone', 'external_id', 'contact_type', 'account_id', 'owner_id'])
    if (given.has(column)) input[column] = given.get(column)
  const blocked = flag('blocked')
  if (blocked !== undefined) input.blocked = blocked
  if (given.has('tags')) input.tags = tagsOfCell(given.get('tags')!)
  if (given.has('custom_fields')) input.custom_fields = customFieldsOf(given.get('custom_fields')!, errors)
  const consent: Partial<Record<ConsentChannel, boolean>> = {}
  const consentTimes: Partial<Record<ConsentChannel, number>> = {}
  for (const channel of CONSENT_CHANNELS) {
    const granted = flag(`consent_${channel}`)
    const at = given.get(`consent_${channel}_at`)
    if (granted !== undefined) consent[channel] = granted
    if (at === undefined) continue
    const time = Date.parse(at)
    if (granted === undefined) errors.push({ field: `consent_${channel}_at`, message: `needs consent_${channel}` })
    else if (Number.isNaN(time) || !at.includes('T')) errors.push({ field: `consent_${channel}_at`, message: 'must be an RFC 3339 time' })
    else if (time > now) errors.push({ field: `consent_${channel}_at`, message: 'must not be in the future' })
    else consentTimes[channel] = time
  }
  if (Object.keys(consent).length > 0) input.consent = consent
  // The API's own schema of a new contact: the same rules, in the same words.
  if (errors.length === 0 && !NEW_CONTACT.Check(input))
    errors.push(...valueFieldErrors([...NEW_CONTACT.Errors(input)] as unknown as ValueErrorLike[]))
  if (errors.length > 0) return { errors }
  return {
    input: { ...(input as unknown as NewContact), consentTimes },
    accountDomain: given.get('account_domain') ?? null,
    ownerEmail: given.get('owner_email') ?? null,
  }
}

function customFieldsOf(cell: string, errors: FieldError[]): unknown {
  try {
    const value: unknown = JSON.parse(cell)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {
    // Reported below, as any other text that is not an object.
  }
  errors.push({ field: 'custom_fields', message: 'must be a JSON object, e.g. {"plan":"gold"}' })
  return undefined
}
