// Strict RFC 3339 date-times for request fields. Elysia's 'date-time' format also lets through bare
// dates, "01/06/2026" (read in the server's time zone) and Date strings, and Date.parse rolls
// impossible fields over (30 February -> 2 March, 24:00 -> the next day): a time must name the
// instant the client wrote, or be refused.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

export const DATE_TIME_EXPECTED = 'must be an RFC 3339 date-time with a time zone, e.g. 2026-06-30T00:00:00Z'

/** Milliseconds since the epoch, or undefined when `text` is not a real RFC 3339 date-time with an offset. */
export function parseDateTime(text: string): number | undefined {
  if (!DATE_TIME.test(text)) return undefined
  const fields = text.slice(0, 19).toUpperCase()
  const asWritten = Date.parse(`${fields}Z`)
  if (Number.isNaN(asWritten) || new Date(asWritten).toISOString().slice(0, 19) !== fields) return undefined
  const ms = Date.parse(text.toUpperCase())
  return Number.isNaN(ms) ? undefined : ms
}
