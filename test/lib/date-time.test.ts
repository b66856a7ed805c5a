// parseDateTime (src/lib/date-time.ts): RFC 3339 with an offset, read as written, or refused.
import { expect, test } from 'bun:test'
import { parseDateTime } from '../../src/lib/date-time.ts'

test.each([
  ['2026-06-30T00:00:00Z', Date.UTC(2026, 5, 30)],
  ['2026-06-30t00:00:00z', Date.UTC(2026, 5, 30)],
  ['2026-06-30T02:00:00+02:00', Date.UTC(2026, 5, 30)],
  ['2026-06-29T19:00:00.250-05:00', Date.UTC(2026, 5, 30, 0, 0, 0, 250)],
  ['2028-02-29T12:00:00Z', Date.UTC(2028, 1, 29, 12)],
])('%s is read as written', (text, ms) => {
  expect(parseDateTime(text)).toBe(ms)
})

test.each([
  '2026-06-30',
  '2026-06-30T00:00:00',
  '01/06/2026',
  'Tue Jun 30 2026 00:00:00 GMT+0000',
  '2026-02-30T00:00:00Z',
  '2027-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-06-30T24:00:00Z',
  '2026-06-30T23:60:00Z',
  '2026-13-01T00:00:00Z',
  ' 2026-06-30T00:00:00Z',
  '',
])('%p is refused', (text) => {
  expect(parseDateTime(text)).toBeUndefined()
})
