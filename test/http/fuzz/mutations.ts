// The route fuzzer's values: a seeded PRNG (the same requests on every run and engine), the bad values a
// field, a query parameter or a path id is given, and the example bodies with real ids put in for the
// documentation's made-up ones.
import type { Ids } from './records.ts'

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `count` items of `items`, chosen by `random` (all of them when there are fewer). */
export function sample<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const chosen: T[] = []
  while (pool.length > 0 && chosen.length < count) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!)
  return chosen
}

function deep(levels: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

/** What a field of a JSON body is set to: wrong types, nulls, extremes of numbers, strings and nesting. */
export const FIELD_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  '',
  ' ',
  '-1',
  '99999999999999999999',
  'x'.repeat(70_000),
  '\u{1F4A9}'.repeat(500),
  'not-a-date',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T25:61:00Z',
  "'; DROP TABLE contacts; --",
  [],
  [null],
  Array.from({ length: 300 }, (_, i) => `item${i}`),
  {},
  { unknown: 1 },
  deep(40),
]

/** What a query parameter is set to (also sent twice, and as a real id). */
export const QUERY_VALUES: readonly string[] = [
  '',
  '0',
  '-1',
  '1e309',
  '99999999999999999999',
  'x'.repeat(5000),
  '☃',
  'null',
  'true',
  '2026-13-45',
  '2026-01-01T00:00:00Z',
  'created_at:desc',
  'bogus:asc',
  '%',
  "'",
]

/** Path segments that are no id of anything. */
export const JUNK_IDS: readonly string[] = ['0', '-1', '99999999999999999999', 'x'.repeat(3000), '☃', "' OR 1=1 --", 'null', '%', '..']

const EXAMPLE_ID = /^([a-z]+)_[0-9A-Za-z]{20,}$/

/** The example with each made-up id (`tkt_01KAX…`) replaced by the seeded record of that prefix. */
export function withRealIds(value: unknown, ids: Ids): unknown {
  const byPrefix = new Map(Object.values(ids).map((id) => [id.split('_')[0]!, id]))
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return byPrefix.get(EXAMPLE_ID.exec(v)?.[1] ?? '') ?? v
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value)
}
