// The one HMAC helper and the constant-time comparison (src/lib/hmac.ts), checked against node:crypto;
// and that nothing else in src makes its own HMAC or compares MACs by hand.
import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { constantTimeEqual, hmacSha256, hmacSha256Hex } from '../../src/lib/hmac.ts'
import { ROOT } from '../helpers/root.ts'

describe('hmacSha256', () => {
  const keys: [string, string | Uint8Array][] = [
    ['an ASCII string key', 'a-webhook-secret-0123'],
    ['a non-ASCII string key (UTF-8 bytes)', 'clé secrète ✓ 🔑'],
    ['a byte key', new Uint8Array(32).fill(7)],
    ['a key longer than the block', 'k'.repeat(200)],
  ]
  for (const [name, key] of keys) {
    test(`${name}: the same bytes as node:crypto in hex, base64 and base64url`, () => {
      for (const data of ['', '{"id":"evt_1"}', 'é ✓ 🔑 \u0000 end']) {
        for (const encoding of ['hex', 'base64', 'base64url'] as const) {
          expect(hmacSha256(key, data, encoding)).toBe(createHmac('sha256', key).update(data).digest(encoding))
        }
        expect(hmacSha256Hex(key, data)).toBe(createHmac('sha256', key).update(data).digest('hex'))
      }
    })
  }

  test('RFC 4231 test case 2', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
  })
})

describe('constantTimeEqual', () => {
  test.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['abcd', 'abc', false],
    ['', 'a', false],
    ['é', 'é', true],
    // One UTF-16 unit each, different UTF-8 lengths: compared as bytes, never thrown on.
    ['é', 'e', false],
    ['ab', 'é', false],
  ])('%p vs %p -> %p', (a, b, expected) => {
    expect(constantTimeEqual(a, b)).toBe(expected)
  })
})

/** Every .ts file under src, with its text. */
function sources(): [string, string][] {
  const dir = join(ROOT, 'src')
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((path) => path.endsWith('.ts'))
    .map((path) => [relative(ROOT, join(dir, path)), readFileSync(join(dir, path), 'utf8')])
}

describe('one HMAC in the code base', () => {
  test('no file but src/lib/hmac.ts makes an HMAC (createHmac, or a keyed CryptoHasher)', () => {
    const copies = sources()
      .filter(([path]) => path !== 'src/lib/hmac.ts')
      .filter(([, text]) => /\bcreateHmac\s*\(|CryptoHasher\(\s*['"]sha\d+['"]\s*,/.test(text))
      .map(([path]) => path)
    expect(copies).toEqual([])
  })

  test('no file compares secrets with a hand-written XOR loop', () => {
    const loops = sources()
      .filter(([, text]) => /\|=\s*\w+\.charCodeAt\(\w+\)\s*\^/.test(text))
      .map(([path]) => path)
    expect(loops).toEqual([])
  })
})
