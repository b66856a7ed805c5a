// Identifiers (src/lib/ids.ts): sortableId is 26 Crockford base32 characters of a UUIDv7 in creation order; prefixedId adds a prefix.
import { describe, expect, test } from 'bun:test'
import { prefixedId, sortableId } from '../../src/lib/ids.ts'

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** Decodes 26 Crockford base32 characters back into the 16 bytes they encode (130 bits, top 2 zero). */
function decode(id: string): Uint8Array {
  let value = 0n
  for (const c of id) {
    const digit = ALPHABET.indexOf(c)
    if (digit < 0) throw new Error(`not Crockford base32: ${c}`)
    value = (value << 5n) | BigInt(digit)
  }
  if (value >> 128n !== 0n) throw new Error('more than 128 bits')
  const bytes = new Uint8Array(16)
  for (let i = 15; i >= 0; i--) {
    bytes[i] = Number(value & 0xffn)
    value >>= 8n
  }
  return bytes
}

describe('sortableId', () => {
  test('is 26 characters of Crockford base32 (no I, L, O, U)', () => {
    for (let i = 0; i < 1000; i++) expect(sortableId()).toMatch(CROCKFORD)
  })

  test('ids made in sequence sort in creation order, without duplicates', () => {
    const ids = Array.from({ length: 10_000 }, () => sortableId())
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test('encodes a UUIDv7: version 7, RFC 4122 variant', () => {
    for (let i = 0; i < 100; i++) {
      const bytes = decode(sortableId())
      expect(bytes[6]! >> 4).toBe(7)
      expect(bytes[8]! >> 6).toBe(0b10)
    }
  })

  test('the first 48 bits are the creation time in milliseconds', () => {
    const before = Date.now()
    const bytes = decode(sortableId())
    const after = Date.now()
    let ms = 0
    for (let i = 0; i < 6; i++) ms = ms * 256 + bytes[i]!
    expect(ms).toBeGreaterThanOrEqual(before)
    expect(ms).toBeLessThanOrEqual(after)
  })

  test('an id made in a later millisecond sorts after one made earlier', async () => {
    const first = sortableId()
    await Bun.sleep(3)
    const second = sortableId()
    expect(first < second).toBe(true)
    // the timestamp part (10 characters = 50 bits, 2 of them always zero) grew
    expect(first.slice(0, 10) < second.slice(0, 10)).toBe(true)
  })
})

describe('prefixedId', () => {
  test('is the prefix, an underscore and a sortable id', () => {
    const id: `tkt_${string}` = prefixedId('tkt')
    expect(id.startsWith('tkt_')).toBe(true)
    expect(id.slice(4)).toMatch(CROCKFORD)
    expect(id).toHaveLength(30)
  })

  test.each([['usr'], ['a'], ['org_member']])('works for prefix %p', (prefix) => {
    const id = prefixedId(prefix)
    expect(id.startsWith(`${prefix}_`)).toBe(true)
    expect(id.slice(prefix.length + 1)).toMatch(CROCKFORD)
  })

  test('ids with the same prefix sort in creation order and are unique', () => {
    const ids = Array.from({ length: 1000 }, () => prefixedId('tkt'))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
