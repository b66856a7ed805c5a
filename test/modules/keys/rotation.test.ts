// Signing-key rotation: a new key is published at once, signs after the activation delay, and the old
// key stays in the JWKS until every token it signed has expired; tokens verify from the JWKS alone.
import { afterAll, expect, test } from 'bun:test'
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose'
import type { Keyring } from '../../../src/modules/keys/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)
const keyring = app.context.keys as Keyring

const jwks = async () => json<JSONWebKeySet>(await app.request('/.well-known/jwks.json'))
const kids = async () => (await jwks()).keys.map((k) => k.kid)
const kidOf = (token: string) => decodeProtectedHeader(token).kid
const verifies = async (token: string) => {
  await jwtVerify(token, createLocalJWKSet(await jwks()), {
    issuer: app.config.authUrl,
    audience: app.config.apiAudience,
    algorithms: ['RS256'],
    currentDate: new Date(app.clock.now()),
  })
  return (await app.request('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).status === 200
}

test('kid is the RFC 7638 thumbprint of the key', async () => {
  for (const key of (await jwks()).keys) expect(await calculateJwkThumbprint(key)).toBe(key.kid!)
})

test('the full life of a rotation', async () => {
  const [oldKid] = await kids()
  const before = users.admin.accessToken
  expect(kidOf(before)).toBe(oldKid)

  // Rotate with the default 10-minute activation delay: published now, not signing yet.
  const rotated = await keyring.rotate(app.config.keyActivationDelayS)
  expect(rotated.activates_at).toBe(new Date(app.clock.now() + 600_000).toISOString())
  expect(await kids()).toEqual([oldKid, rotated.kid])
  const duringDelay = (await signIn(app, users.viewer.user)).accessToken
  expect(kidOf(duringDelay)).toBe(oldKid)

  // Activated: new tokens carry the new kid; tokens signed before still verify.
  app.clock.advance(600_000)
  const after = (await signIn(app, users.viewer.user)).accessToken
  expect(kidOf(after)).toBe(rotated.kid)
  expect(await verifies(before)).toBe(true)
  expect(await verifies(duringDelay)).toBe(true)
  expect(await verifies(after)).toBe(true)
  expect(await kids()).toEqual([oldKid, rotated.kid])

  // The old key's last token (issued during the delay) expires 60 minutes after it was issued; the
  // key stays published a further 5 minutes for verifiers whose clocks run behind, then leaves.
  app.clock.advance(3_600_000 - 600_000 + 5 * 60_000 - 1000)
  expect(await kids()).toEqual([oldKid, rotated.kid])
  app.clock.advance(2000)
  expect(await kids()).toEqual([rotated.kid])
  expect(await verifies((await signIn(app, users.viewer.user)).accessToken)).toBe(true)
})

test('a key waiting to activate is published but never signs early, even several rotations ahead', async () => {
  const first = await keyring.rotate(60)
  const second = await keyring.rotate(120)
  const signing = (await keyring.signer(app.clock.now())).kid
  expect(await kids()).toEqual(expect.arrayContaining([signing, first.kid, second.kid]))
  app.clock.advance(60_000)
  expect((await keyring.signer(app.clock.now())).kid).toBe(first.kid)
  app.clock.advance(60_000)
  expect((await keyring.signer(app.clock.now())).kid).toBe(second.kid)
})

// The key's row is the same for every instance: it is written once a minute at most, never on every
// sign-in (a lock held on it to each commit would serialize the cluster's sign-ins).
test('a key records the last expiry of its tokens in whole minutes, covering every token, written once a minute', async () => {
  const { kid } = await keyring.signer(app.clock.now())
  const recorded = async () =>
    Number((await app.context.db.raw.get<{ at: number }>('SELECT max_token_expires_at AS at FROM signing_keys WHERE kid = ?', [kid]))!.at)
  const first = await signIn(app, users.agent.user)
  const exp = (JSON.parse(Buffer.from(first.accessToken.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000
  const after = await recorded()
  expect(after % 60_000).toBe(0)
  expect(after).toBeGreaterThanOrEqual(exp)
  expect(after - exp).toBeLessThan(60_000)
  // Ten more seconds: the same minute (or the next one), never a value that is not whole.
  app.clock.advance(10_000)
  await signIn(app, users.agent.user)
  expect((await recorded()) % 60_000).toBe(0)
})
