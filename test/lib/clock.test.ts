// Clock (src/lib/clock.ts): isoTime formats epoch milliseconds as UTC ISO-8601; systemClock reads the real time.
import { describe, expect, test } from 'bun:test'
import { isoTime, systemClock } from '../../src/lib/clock.ts'

describe('isoTime', () => {
  test.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [1, '1970-01-01T00:00:00.001Z'],
    [-1, '1969-12-31T23:59:59.999Z'],
    [86_400_000, '1970-01-02T00:00:00.000Z'],
    [1_700_000_000_000, '2023-11-14T22:13:20.000Z'],
    [Date.UTC(2026, 0, 1, 12, 0, 0, 5), '2026-01-01T12:00:00.005Z'],
    [Date.UTC(2024, 1, 29, 23, 59, 59, 999), '2024-02-29T23:59:59.999Z'],
  ])('%p -> %s', (ms, expected) => {
    expect(isoTime(ms)).toBe(expected)
  })
})

describe('systemClock', () => {
  test('now() is the current time in milliseconds', () => {
    const before = Date.now()
    const now = systemClock.now()
    const after = Date.now()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(after)
  })
})
