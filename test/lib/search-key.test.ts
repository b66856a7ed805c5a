// searchKey: case and accents folded in any script, so sorting and prefix search behave for people.
import { expect, test } from 'bun:test'
import { searchKey } from '../../src/lib/search-key.ts'

test.each([
  ['Émile', 'emile'],
  ['ÉMILE', 'emile'],
  ['e\u0301mile', 'emile'],
  ['ábel', 'abel'],
  ['Ørjan', 'ørjan'],
  ['İstanbul', 'istanbul'],
  ['Straße', 'straße'],
  ['ПРИВЕТ', 'привет'],
  ['', ''],
])('%s -> %s', (input, folded) => {
  expect(searchKey(input)).toBe(folded)
})
