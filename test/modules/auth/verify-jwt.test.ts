// verifyJwt, our synchronous RS256 verifier: each refusal, in jose's order (shape, header, signature,
// claims), with tokens signed by jose so the two implementations are checked against each other.
import { describe, expect, test } from 'bun:test'
import { createPublicKey, sign as rsaSign } from 'node:crypto'
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, type JWTHeaderParameters } from 'jose'
import { hasCanonicalSegments, verifyJwt } from '../../../src/modules/auth/verify-jwt.ts'

const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
const other = await generateKeyPair('RS256')
const keyObject = createPublicKey({ key: await exportJWK(publicKey), format: 'jwk' })
const keys = (kid: string) => (kid === 'k1' ? keyObject : undefined)
const NOW = 1_800_000_000
const expect_ = { issuer: 'https://auth.test', audience: 'https://api.test', now: NOW, required: ['sub', 'exp'] }
const claims = { iss: 'https://auth.test', aud: 'https://api.test', sub: 'usr_1', iat: NOW - 10, nbf: NOW - 10, exp: NOW + 600 }
const sign = (
  payload: Record<string, unknown> = claims,
  header: JWTHeaderParameters = { alg: 'RS256', typ: 'JWT', kid: 'k1' },
  key: CryptoKey = privateKey,
) => new SignJWT(payload).setProtectedHeader(header).sign(key)
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

test('a good token yields its claims', async () => {
  expect(verifyJwt(await sign(), keys, expect_)).toEqual(claims)
})

describe('refusals', () => {
  test('shape: not three base64url segments', async () => {
    const good = await sign()
    for (const token of ['', 'a.b', 'a.b.c.d', `${good}=`, good.replace('.', '.+'), `${good.split('.')[0]}..${good.split('.')[2]}`]) {
      expect(verifyJwt(token, keys, expect_)).toBe('malformed')
    }
  })

  test('header: not an object, another alg, another typ, no kid, or an extension we do not understand', async () => {
    const [, body, sig] = (await sign()).split('.')
    const headers: unknown[] = [
      ['RS256'],
      'RS256',
      { alg: 'none', typ: 'JWT', kid: 'k1' },
      { alg: 'HS256', typ: 'JWT', kid: 'k1' },
      { alg: 'RS512', typ: 'JWT', kid: 'k1' },
      { alg: 'RS256', typ: 'at+jwt', kid: 'k1' },
      { alg: 'RS256', kid: 'k1' },
      { alg: 'RS256', typ: 'JWT' },
      { alg: 'RS256', typ: 'JWT', kid: 7 },
      { alg: 'RS256', typ: 'JWT', kid: 'k1', crit: ['exp'] },
      { alg: 'RS256', typ: 'JWT', kid: 'k1', b64: false },
    ]
    for (const header of headers) expect(verifyJwt(`${b64(header)}.${body}.${sig}`, keys, expect_)).toBe('malformed')
  })

  test('typ is matched without regard to case and with an application/ prefix, as RFC 7515 allows', async () => {
    for (const typ of ['JWT', 'jwt', 'application/jwt'])
      expect(verifyJwt(await sign(claims, { alg: 'RS256', typ, kid: 'k1' }), keys, expect_)).toEqual(claims)
  })

  test('a kid we do not have', async () => {
    expect(verifyJwt(await sign(claims, { alg: 'RS256', typ: 'JWT', kid: 'k2' }), keys, expect_)).toBe('unknown_key')
  })

  test('a signature by another key, or over other bytes', async () => {
    expect(verifyJwt(await sign(claims, undefined, other.privateKey), keys, expect_)).toBe('bad_signature')
    const [head, , sig] = (await sign()).split('.')
    expect(verifyJwt(`${head}.${b64({ ...claims, sub: 'usr_2' })}.${sig}`, keys, expect_)).toBe('bad_signature')
  })

  test('claims: issuer, audience (string or array), required claims, time claims that are not numbers', async () => {
    const cases: Record<string, unknown>[] = [
      { ...claims, iss: 'https://evil.test' },
      { ...claims, aud: 'https://other.test' },
      { ...claims, aud: ['https://other.test'] },
      { ...claims, sub: undefined },
      { ...claims, exp: '9999999999' },
      { ...claims, nbf: null },
    ]
    for (const payload of cases) expect(verifyJwt(await sign(payload), keys, expect_)).toBe('bad_claims')
    expect(verifyJwt(await sign({ ...claims, aud: ['https://x.test', 'https://api.test'] }), keys, expect_)).toEqual({
      ...claims,
      aud: ['https://x.test', 'https://api.test'],
    })
  })

  test('a signed payload that is not a JSON object', async () => {
    const head = b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })
    const body = Buffer.from('[1,2,3]').toString('base64url')
    const signature = rsaSign('sha256', Buffer.from(`${head}.${body}`), await exportPKCS8(privateKey)).toString('base64url')
    expect(verifyJwt(`${head}.${body}.${signature}`, keys, expect_)).toBe('malformed')
  })

  test('times: nbf after now is not yet valid; exp at or before now is expired; exactly at nbf is fine', async () => {
    expect(verifyJwt(await sign({ ...claims, nbf: NOW + 1 }), keys, expect_)).toBe('not_yet_valid')
    expect(verifyJwt(await sign({ ...claims, nbf: NOW }), keys, expect_)).toEqual({ ...claims, nbf: NOW })
    expect(verifyJwt(await sign({ ...claims, exp: NOW }), keys, expect_)).toBe('expired')
    expect(verifyJwt(await sign({ ...claims, exp: NOW + 1 }), keys, expect_)).toEqual({ ...claims, exp: NOW + 1 })
  })
})

describe('canonical base64url (issue 12, item 14)', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  /** The same bytes spelled with other unused trailing bits: the next character of the alphabet. */
  const twin = (segment: string) => segment.slice(0, -1) + ALPHABET[ALPHABET.indexOf(segment.at(-1)!) + 1]

  test('a signature whose last character is a non-canonical twin decodes to the same bytes, and is refused', async () => {
    const [head, body, sig] = (await sign()).split('.') as [string, string, string]
    // 256 signature bytes are 342 characters: the last one carries 4 unused bits.
    expect(sig.length % 4).toBe(2)
    expect(Buffer.from(twin(sig), 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true)
    expect(verifyJwt(`${head}.${body}.${twin(sig)}`, keys, expect_)).toBe('malformed')
    expect(hasCanonicalSegments(`${head}.${body}.${sig}`)).toBe(true)
  })

  test('each segment: non-canonical trailing bits or an impossible length', () => {
    expect(hasCanonicalSegments('eyJh.eyJi.QQ')).toBe(true)
    expect(hasCanonicalSegments('eyJh.eyJi.QR')).toBe(false)
    expect(hasCanonicalSegments('eyJh.eyJi.QUE')).toBe(true)
    expect(hasCanonicalSegments('eyJh.eyJi.QUF')).toBe(false)
    expect(hasCanonicalSegments('eyI.eyJi.QQ')).toBe(true)
    expect(hasCanonicalSegments('eyJ.eyJi.QQ')).toBe(false)
    expect(hasCanonicalSegments('eyJhQ.eyJi.QQ')).toBe(false)
    expect(hasCanonicalSegments('eyJh.eyJi')).toBe(false)
    expect(hasCanonicalSegments('eyJh.eyJi.QQ.QQ')).toBe(false)
  })
})
