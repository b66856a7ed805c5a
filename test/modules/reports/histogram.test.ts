// The reports' histograms (histogram.ts): every grid value has its own cell and comes back out as itself,
// percentiles are the nearest rank of the sorted grid values, a histogram held as a map and one held as
// an array (past 1,024 cells) answer the same, and the stored text gives back the same histogram.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import {
  addHistogramText,
  addToHistogram,
  countAtMost,
  countOf,
  gridValue,
  Histogram,
  histogramText,
  mergeHistograms,
  parseHistogram,
  percentiles,
} from '../../../src/modules/reports/histogram.ts'

const nearestRank = (values: number[], p: number) => {
  const grid = values.map(gridValue).sort((a, b) => a - b)
  return grid.length === 0 ? null : grid[Math.ceil((p / 100) * grid.length) - 1]!
}

test('the grid: whole values up to 9,999, then 4 significant figures, each a cell of its own', () => {
  expect([0, -5, 0.7, 9_999.9, 10_000, 12_345.6, 99_999, 100_000, 123_456_789, 3e12].map(gridValue)).toEqual([
    0, 0, 0, 9_999, 10_000, 12_340, 99_990, 100_000, 123_400_000, 3e12,
  ])
  // One value per cell: the percentile of a single value is that value on the grid, for every decade.
  for (const v of [1, 42, 9_999, 10_000, 10_010, 99_990, 100_000, 999_900, 1_234_000, 98_760_000_000, 3e12]) {
    const h = new Histogram()
    addToHistogram(h, v)
    expect(percentiles(h, [50])).toEqual([gridValue(v)])
  }
})

const valuesArb = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constantFrom(5e10, 7e11)),
  // Up to 3,000 values: beyond 1,024 cells a histogram is held as an array.
  { maxLength: 3_000, size: 'max' },
)

test('percentiles, counts and the stored text agree with the sorted values, as a map and as an array', () => {
  fc.assert(
    fc.property(valuesArb, fc.integer({ min: 0, max: 10_000 }), (values, limit) => {
      const h = new Histogram()
      for (const v of values) addToHistogram(h, v)
      const expected = [nearestRank(values, 50), nearestRank(values, 90), nearestRank(values, 100)]
      expect(percentiles(h, [50, 90, 100])).toEqual(expected)
      expect(countOf(h)).toBe(values.length)
      expect(countAtMost(h, limit)).toBe(values.filter((v) => gridValue(v) <= limit).length)
      const again = parseHistogram(histogramText(h))
      expect(percentiles(again, [50, 90, 100])).toEqual(expected)
      expect([...again.entries()]).toEqual([...h.entries()])
      // Taking every value out again leaves nothing, whichever form the histogram took.
      const sum = new Histogram()
      mergeHistograms(sum, h)
      for (const v of values) addToHistogram(sum, v, -1)
      expect(sum.empty).toBe(true)
    }),
    { numRuns: 200, endOnFailure: true },
  )
})

test('stored texts add up to the histogram of all their values', () => {
  fc.assert(
    fc.property(fc.array(valuesArb, { maxLength: 8 }), (parts) => {
      const sum = new Histogram()
      for (const part of parts) {
        const h = new Histogram()
        for (const v of part) addToHistogram(h, v)
        addHistogramText(sum, histogramText(h))
      }
      const all = parts.flat()
      expect(percentiles(sum, [50, 90])).toEqual([nearestRank(all, 50), nearestRank(all, 90)])
    }),
    { numRuns: 100, endOnFailure: true },
  )
})
