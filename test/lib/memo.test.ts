// memoize: one computation per key, undefined answers included, and never more than `limit` kept.
import { describe, expect, test } from 'bun:test'
import { memoize } from '../../src/lib/memo.ts'

describe('memoize', () => {
  test('computes each key once, an undefined answer too', () => {
    const calls: string[] = []
    const lookup = memoize((key: string) => {
      calls.push(key)
      return key === 'none' ? undefined : key.toUpperCase()
    })
    expect([lookup('a'), lookup('a'), lookup('none'), lookup('none')]).toEqual(['A', 'A', undefined, undefined])
    expect(calls).toEqual(['a', 'none'])
  })

  test('when full it starts over instead of growing', () => {
    const calls: string[] = []
    const lookup = memoize((key: string) => {
      calls.push(key)
      return key
    }, 2)
    for (const key of ['a', 'b', 'c', 'a']) lookup(key)
    expect(calls).toEqual(['a', 'b', 'c', 'a'])
  })
})
