// nestsDeeperThan: the nesting of a JSON text, read before parsing it (issue 27 item 1).
import { expect, test } from 'bun:test'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/lib/json-depth.ts'

const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

test('the bound itself passes; one more level does not; objects and arrays alike', () => {
  expect(MAX_JSON_DEPTH).toBe(64)
  for (const nest of [objects, arrays]) {
    expect(nestsDeeperThan(nest(64))).toBe(false)
    expect(nestsDeeperThan(nest(65))).toBe(true)
  }
  expect(nestsDeeperThan(`{"a":[${objects(62)}]}`)).toBe(false)
  expect(nestsDeeperThan(`{"a":[${objects(63)}]}`)).toBe(true)
})

test('siblings do not add up: many shallow values are not deep', () => {
  expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, () => ({ a: [1] }))))).toBe(false)
})

test('brackets inside strings, escaped quotes included, do not count', () => {
  expect(nestsDeeperThan(JSON.stringify({ a: '{'.repeat(1000), b: '\\"[[[['.repeat(100) }))).toBe(false)
  expect(nestsDeeperThan(`{"a":"\\"${'['.repeat(100)}"}`)).toBe(false)
  expect(nestsDeeperThan(`{"a\\"":${objects(65)}}`)).toBe(true)
})

test('text that is not JSON is measured all the same (the parser refuses it after)', () => {
  expect(nestsDeeperThan('{'.repeat(65))).toBe(true)
  expect(nestsDeeperThan('not json at all')).toBe(false)
})

test('a custom bound', () => {
  expect(nestsDeeperThan(objects(3), 2)).toBe(true)
  expect(nestsDeeperThan(objects(2), 2)).toBe(false)
})
