// Reads a contacts CSV as it streams in (csv-parse): UTF-8 checked, the header checked, each row turned
// into a new contact or refused with its reasons, and the body's SHA-256 taken on the way (an
// Idempotency-Key is bound to it). Nothing is written here: the import writes afterwards, in one go.
import { createHash } from 'node:crypto'
import { CsvError, type Parser, parse } from 'csv-parse'
import { AppError, type FieldError, validationError } from '../../../errors.ts'
import { newContactRow } from './create-contact.ts'
import { headerColumns, type ImportedContact, importedContact } from './csv-columns.ts'

/** Where a row is: `row` as a spreadsheet numbers it (the header is row 1), `line` the file's line where it ends. */
export interface RowPlace {
  row: number
  line: number
}

export type ReadRow = RowPlace & ({ contact: ImportedContact } | { errors: FieldError[] })

export interface ReadCsv {
  /** SHA-256 of the body as sent, hex. */
  digest: string
  rows: ReadRow[]
}

export async function readContactCsv(
  chunks: AsyncIterable<Uint8Array>,
  input: { organizationId: string; now: number; maxRows: number },
): Promise<ReadCsv> {
  const hash = createHash('sha256')
  const parser = parse({ relax_column_count: true, info: true })
  const rows: ReadRow[] = []
  let columns: string[] | undefined
  const feeding = (async () => {
    // fatal: a file that is not UTF-8 is refused rather than imported with U+FFFD in its names.
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const decode = (chunk?: Uint8Array) => {
      try {
        return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
      } catch {
        throw validationError([{ field: 'body', message: 'must be UTF-8 text' }], 'The file is not UTF-8 text')
      }
    }
    try {
      for await (const chunk of chunks) {
        // The reader gave up (its error is the one reported): the rest of the body is not read.
        if (parser.destroyed) return
        hash.update(chunk)
        if (!parser.write(decode(chunk))) await drained(parser)
      }
      parser.end(decode())
    } catch (error) {
      // With the error: the reader's loop then ends with it too (without one it may wait for ever).
      parser.destroy(error as Error)
      throw error
    }
  })()
  const reading = (async () => {
    // Every record counts, blank ones too, so that `row` is the row a spreadsheet shows.
    let row = 0
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      row++
      // A blank line, or a row of empty cells (spreadsheets write them after the data): nothing to import.
      if (record.every((cell) => cell.trim() === '')) continue
      if (columns === undefined) {
        const header = headerColumns(record)
        if ('errors' in header) throw validationError(header.errors, 'The header row names columns an import cannot take')
        columns = header.columns
        continue
      }
      if (rows.length === input.maxRows)
        throw new AppError('PAYLOAD_TOO_LARGE', `The file has more than ${input.maxRows} rows (IMPORT_MAX_ROWS): split it`)
      const place = { row, line: info.lines }
      rows.push({ ...place, ...checkedRow(columns, record, input) })
    }
  })()
  const failures = (await Promise.allSettled([feeding, reading])).flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  // Either side's refusal (413, bad UTF-8, a bad header) also ends the other, with a less telling error.
  const refusal = failures.find((e) => e instanceof AppError) ?? failures.find((e) => e instanceof CsvError)
  if (refusal instanceof CsvError) throw malformed(refusal)
  if (refusal ?? failures[0]) throw refusal ?? failures[0]
  if (columns === undefined) throw validationError([{ field: 'body', message: 'must start with a header row' }], 'The file is empty')
  if (rows.length === 0) throw validationError([{ field: 'body', message: 'has a header but no rows' }], 'The file has no rows')
  return { digest: hash.digest('hex'), rows }
}

/** Resolves when the parser wants more, or has closed (the reader gave up). */
function drained(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    if (parser.destroyed) return resolve()
    const done = () => {
      parser.off('drain', done)
      parser.off('close', done)
      resolve()
    }
    parser.on('drain', done)
    parser.on('close', done)
  })
}

/** The row's contact after every check that needs no database (the phone's E.164 among them), or its errors. */
function checkedRow(columns: string[], record: string[], input: { organizationId: string; now: number }) {
  const read = importedContact(columns, record, input.now)
  if ('errors' in read) return { errors: read.errors }
  try {
    newContactRow(input.organizationId, read.input, input.now)
  } catch (error) {
    if (error instanceof AppError && error.errors) return { errors: error.errors }
    throw error
  }
  return { contact: read }
}

function malformed(error: CsvError): AppError {
  // csv-parse's messages name the line ("Invalid Closing Quote: ... at line 3"): the client can find it.
  return validationError([{ field: 'body', message: error.message }], 'The file is not valid CSV')
}
