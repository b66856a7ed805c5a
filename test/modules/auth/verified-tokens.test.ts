// The verified-token cache: hits until expiry, then "expired" and forgotten; bounded, oldest out first.
import { expect, test } from 'bun:test'
import { VerifiedTokens } from '../../../src/modules/auth/verified-tokens.ts'

const claims = (exp: number) => ({ sub: 'usr_1', jti: `at_${exp}`, sid: 'ses_1', organizationId: 'org_1', exp, mfaEnrollmentOnly: false })

test('a remembered token is returned until its exp, then reported expired once and forgotten', () => {
  const cache = new VerifiedTokens()
  cache.remember('t1', claims(100))
  expect(cache.get('t1', 99)).toEqual(claims(100))
  expect(cache.get('t1', 100)).toBe('expired')
  expect(cache.get('t1', 100)).toBeUndefined()
  expect(cache.get('never-seen', 0)).toBeUndefined()
})

test('bounded: at capacity the oldest entry makes room', () => {
  const cache = new VerifiedTokens(3)
  for (const token of ['a', 'b', 'c', 'd']) cache.remember(token, claims(1000))
  expect(cache.size).toBe(3)
  expect(cache.get('a', 0)).toBeUndefined()
  expect(cache.get('d', 0)).toEqual(claims(1000))
})
