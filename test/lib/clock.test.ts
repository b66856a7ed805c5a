// Clock (src/lib/clock.ts): isoTime formats epoch milliseconds as UTC ISO-8601 exactly as toISOString
// does (its fast path checked against it); systemClock reads the real time.
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
    [-62_167_219_200_000, '0000-01-01T00:00:00.000Z'],
    [253_402_300_799_999, '9999-12-31T23:59:59.999Z'],
  ])('%p -> %s', (ms, expected) => {
    expect(isoTime(ms)).toBe(expected)
  })

  test('is what toISOString writes, for 200,000 instants from 1900 to 2200 and every millisecond of a day edge', () => {
    const misses: number[] = []
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor(Math.random() * 9_467_280_000_000) - 2_208_988_800_000
      if (isoTime(ms) !== new Date(ms).toISOString()) misses.push(ms)
    }
    for (let ms = 86_400_000 * 20_000 - 1500; ms < 86_400_000 * 20_000 + 1500; ms++)
      if (isoTime(ms) !== new Date(ms).toISOString()) misses.push(ms)
    expect(misses).toEqual([])
  })

  test('outside years 0000-9999, and for a fraction of a millisecond, it is toISOString itself', () => {
    expect(isoTime(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z')
    expect(isoTime(-62_167_219_200_001)).toBe('-000001-12-31T23:59:59.999Z')
    expect(isoTime(1.5)).toBe(new Date(1.5).toISOString())
    expect(() => isoTime(Number.NaN)).toThrow(RangeError)
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
