// The personal access token format: pat_live_ + 43 base62 characters + a 6-character base62 CRC32, and every malformed variant refused by the checksum alone.
import { describe, expect, test } from 'bun:test'
import {
  DISPLAY_PREFIX_LENGTH,
  isWellFormedPersonalAccessToken,
  looksLikePersonalAccessToken,
  newPersonalAccessToken,
  PAT_LENGTH,
  PAT_PREFIX,
} from '../../src/lib/personal-access-token.ts'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SHAPE = /^pat_live_[0-9A-Za-z]{49}$/

// An independent CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), not Bun.hash.crc32.
function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}
function base62(value: number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}
const withChecksum = (body: string) => `${PAT_PREFIX}${body}${base62(crc32(body), 6)}`

describe('newPersonalAccessToken', () => {
  const tokens = Array.from({ length: 200 }, () => newPersonalAccessToken())

  test('pat_live_ + 49 base62 characters, 58 in all; the display prefix is the first 17', () => {
    expect(PAT_PREFIX).toBe('pat_live_')
    expect(PAT_LENGTH).toBe(58)
    expect(DISPLAY_PREFIX_LENGTH).toBe(17)
    for (const token of tokens) {
      expect(token).toMatch(SHAPE)
      expect(token.length).toBe(58)
      expect(isWellFormedPersonalAccessToken(token)).toBe(true)
      expect(looksLikePersonalAccessToken(token)).toBe(true)
    }
  })

  test('the last 6 characters are the base62 CRC-32 of the 43-character body (checked with an independent CRC-32)', () => {
    for (const token of tokens) {
      const body = token.slice(9, 52)
      expect(token.slice(52)).toBe(base62(crc32(body), 6))
    }
    // And a token built by hand with that rule is accepted.
    expect(isWellFormedPersonalAccessToken(withChecksum('A'.repeat(43)))).toBe(true)
  })

  test('random: 200 tokens, 200 distinct values and 200 distinct bodies; the body carries at least 32 bytes', () => {
    expect(new Set(tokens).size).toBe(200)
    expect(new Set(tokens.map((t) => t.slice(9, 52))).size).toBe(200)
    // 43 base62 digits hold 256.03 bits: enough for 32 random bytes, and the encoding never overflows.
    expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256)
    // Every base62 character shows up somewhere in 200 × 43 random digits (an encoding that left some
    // out would be a weaker alphabet than it claims).
    const seen = new Set(tokens.flatMap((t) => [...t.slice(9, 52)]))
    expect(seen.size).toBe(62)
  })
})

describe('isWellFormedPersonalAccessToken refuses every malformed token', () => {
  const token = newPersonalAccessToken()

  test('every single-character substitution anywhere after the prefix (body and checksum) is refused', () => {
    let tried = 0
    for (let i = PAT_PREFIX.length; i < token.length; i++) {
      for (const c of BASE62) {
        if (c === token[i]) continue
        const mutated = token.slice(0, i) + c + token.slice(i + 1)
        expect(mutated).toMatch(SHAPE)
        if (isWellFormedPersonalAccessToken(mutated)) throw new Error(`accepted ${mutated} (position ${i})`)
        tried++
      }
    }
    expect(tried).toBe(49 * 61)
  })

  test('every transposition of two adjacent, different characters is refused', () => {
    for (let i = PAT_PREFIX.length; i < token.length - 1; i++) {
      if (token[i] === token[i + 1]) continue
      const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2)
      expect(isWellFormedPersonalAccessToken(swapped)).toBe(false)
    }
  })

  test.each([
    ['truncated by one', token.slice(0, -1)],
    ['truncated to the display prefix', token.slice(0, 17)],
    ['the prefix alone', 'pat_live_'],
    ['one character more', `${token}A`],
    ['checksum repeated', `${token}${token.slice(-6)}`],
    ['test prefix', token.replace('pat_live_', 'pat_test_')],
    ['uppercase prefix', token.replace('pat_live_', 'PAT_LIVE_')],
    ['prefix without underscore', token.replace('pat_live_', 'patlive_')],
    ['leading space', ` ${token}`],
    ['trailing space', `${token} `],
    ['trailing newline', `${token}\n`],
    ['non-base62 character in the body', `${token.slice(0, 20)}-${token.slice(21)}`],
    ['underscore in the body', `${token.slice(0, 20)}_${token.slice(21)}`],
    ['a non-ASCII letter in the body', `${token.slice(0, 20)}é${token.slice(21)}`],
    ['the whole token lowercased', token.toLowerCase()],
    ['empty', ''],
    ['a JWT', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
    ['body of another token with this checksum', `${newPersonalAccessToken().slice(0, 52)}${token.slice(52)}`],
  ])('%s', (_, candidate) => {
    expect(isWellFormedPersonalAccessToken(candidate)).toBe(false)
  })

  test('looksLikePersonalAccessToken only checks the prefix (malformed PATs still never go to JWT verification)', () => {
    expect(looksLikePersonalAccessToken('pat_live_x')).toBe(true)
    expect(looksLikePersonalAccessToken('PAT_LIVE_x')).toBe(false)
    expect(looksLikePersonalAccessToken('eyJhbGciOi')).toBe(false)
  })
})
