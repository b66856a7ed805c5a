// CSV shared by the CRM's imports and exports: cells that a spreadsheet would run as formulas are
// escaped on the way out and unescaped on the way in (so an export imports back as it was), tags are
// one cell, and an export is a stream of rows written from keyset pages as the client reads them.
import { stringify } from 'csv-stringify/sync'

/**
 * A cell a spreadsheet would take for a formula (`=`, `@`, a tab or carriage return first, or `+`/`-`
 * before anything but a number: OWASP's "CSV injection") gets a leading `'`, which spreadsheets show as
 * text. E.164 phone numbers and negative numbers stay as they are.
 */
export function escapeCell(text: string): string {
  if (text === '') return text
  const first = text[0]!
  // A text that already reads as an escaped cell gets one more quote, so that the import's unescapeCell
  // gives it back whole (`'=x` stays `'=x`, not `=x`).
  if (first === "'" && escapeCell(text.slice(1)) === text) return `'${text}`
  if (first === '=' || first === '@' || first === '\t' || first === '\r') return `'${text}`
  if ((first === '+' || first === '-') && !/^[+-][\d .]*$/.test(text)) return `'${text}`
  return text
}

/** The reverse of escapeCell: a `'` it added is taken off again on import. */
export function unescapeCell(text: string): string {
  return text.length > 1 && text[0] === "'" && escapeCell(text.slice(1)) === text ? text.slice(1) : text
}

/** Tags in one cell, separated by spaces (a tag holds neither spaces nor commas); on import either separates. */
export function tagsCell(tagsJson: string): string {
  return (JSON.parse(tagsJson) as string[]).join(' ')
}

export function tagsOfCell(cell: string): string[] {
  return cell.split(/[\s,]+/).filter((tag) => tag !== '')
}

/** Custom fields in one cell, as JSON (exact: numbers and booleans stay what they are); empty for none. */
export function customFieldsCell(customFieldsJson: string): string {
  return customFieldsJson === '{}' ? '' : customFieldsJson
}

export type Cell = string | number | boolean | null

/** One CSV line per row (RFC 4180: CRLF, quotes where needed), every text cell escaped. */
export function csvLines(rows: readonly (readonly Cell[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (typeof cell === 'string' ? escapeCell(cell) : cell))),
    { record_delimiter: '\r\n', cast: { boolean: (value) => String(value) } },
  )
}

/**
 * The body of an export: the header, then the rows of each batch `batches` yields, encoded as they are
 * pulled (the client's reading paces the database's). A failure after the first bytes can only cut the
 * stream short: the status line has gone out.
 */
export function csvStream<Row>(
  header: readonly string[],
  batches: AsyncIterable<readonly Row[]>,
  cells: (row: Row) => readonly Cell[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = batches[Symbol.asyncIterator]()
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        // The BOM tells spreadsheets the file is UTF-8 (Excel guesses a legacy code page without it).
        controller.enqueue(encoder.encode(`\uFEFF${csvLines([header])}`))
        return
      }
      const next = await iterator.next()
      if (next.done) return controller.close()
      if (next.value.length > 0) controller.enqueue(encoder.encode(csvLines(next.value.map(cells))))
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}

/** An export's answer: the stream as an attachment named after what it holds and the day. */
export function csvDownload(what: string, now: number, body: ReadableStream<Uint8Array>): Response {
  const day = new Date(now).toISOString().slice(0, 10)
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${what}-${day}.csv"`,
      // Personal data: no shared cache may keep it.
      'cache-control': 'no-store',
    },
  })
}

/** OpenAPI: the request body of an import (the route reads it as a stream, so no schema says so). */
export const CSV_REQUEST_BODY = {
  required: true,
  content: {
    'text/csv': {
      schema: { type: 'string' as const, description: 'RFC 4180 CSV in UTF-8; the first row names the columns' },
      example: 'name,email,phone,tags\r\nGrace Customer,grace@example.com,+14155550123,vip\r\n',
    },
  },
}

/** OpenAPI: the 200 of an export. */
export const CSV_RESPONSE = {
  200: {
    description: 'CSV (RFC 4180, UTF-8 with a byte order mark), as an attachment',
    content: { 'text/csv': { schema: { type: 'string' as const } } },
  },
}
