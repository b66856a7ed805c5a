// Recovery codes: single use, case/dash-insensitive, bound to their user, replaced by a new confirm, counted in the MFA status.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import {
  challenge,
  enrollSmsViaLog,
  enrollTotp,
  expectError,
  freshOrg,
  jwtPayload,
  login,
  recoveryStepUp,
  send,
  status,
  totpAt,
  totpStepUp,
  verify,
  type TokenBody,
} from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

async function totpUser() {
  const { users } = await freshOrg(app)
  const enrolled = await enrollTotp(app, users.agent.auth)
  return { user: users.agent.user, auth: users.agent.auth, ...enrolled }
}

describe('recovery codes', () => {
  test('each works once: the same code on a new login -> 401 INVALID_MFA_CODE', async () => {
    const { user, recoveryCodes } = await totpUser()
    const [code] = recoveryCodes
    const first = await challenge(app, user.email)
    const response = await verify(app, first.mfa_token, code!, 'recovery')
    expect(response.status).toBe(200)
    expect(jwtPayload((await json<TokenBody>(response)).access_token).amr).toEqual(['pwd', 'mfa'])

    const second = await challenge(app, user.email)
    await expectError(await verify(app, second.mfa_token, code!, 'recovery'), 401, 'INVALID_MFA_CODE')
    // The refusal was a wrong code like any other; another unused code still gets in on the same token.
    expect((await verify(app, second.mfa_token, recoveryCodes[1]!, 'recovery')).status).toBe(200)
  })

  test('every one of the 10 codes works exactly once, and the count goes down to 0', async () => {
    const { user, auth, recoveryCodes } = await totpUser()
    expect((await status(app, auth)).recovery_codes_remaining).toBe(10)
    for (const [i, code] of recoveryCodes.entries()) {
      const { mfa_token } = await challenge(app, user.email)
      expect((await verify(app, mfa_token, code, 'recovery')).status).toBe(200)
      expect((await status(app, auth)).recovery_codes_remaining).toBe(9 - i)
    }
    const { mfa_token } = await challenge(app, user.email)
    for (const code of recoveryCodes.slice(0, 5)) await expectError(await verify(app, mfa_token, code, 'recovery'), 401, 'INVALID_MFA_CODE')
    // TOTP is still on after the last recovery code.
    expect((await status(app, auth)).totp.enabled).toBe(true)
  })

  test('case, dashes and spaces do not matter', async () => {
    const { user, auth, recoveryCodes } = await totpUser()
    const variants = [
      recoveryCodes[0]!.toUpperCase(),
      recoveryCodes[1]!.replaceAll('-', ''),
      recoveryCodes[2]!.toUpperCase().replaceAll('-', ' '),
      ` ${recoveryCodes[3]} `,
    ]
    for (const variant of variants) {
      const { mfa_token } = await challenge(app, user.email)
      expect((await verify(app, mfa_token, variant, 'recovery')).status).toBe(200)
    }
    expect((await status(app, auth)).recovery_codes_remaining).toBe(6)
    // A variant of a used code is that used code.
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, recoveryCodes[0]!, 'recovery'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, mfa_token, recoveryCodes[1]!.toUpperCase(), 'recovery'), 401, 'INVALID_MFA_CODE')
  })

  test('a near miss (one character changed) is refused and spends nothing', async () => {
    const { user, auth, recoveryCodes } = await totpUser()
    const code = recoveryCodes[0]!
    const last = code.at(-1)!
    const nearMiss = code.slice(0, -1) + (last === 'z' ? 'y' : 'z')
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, nearMiss, 'recovery'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, mfa_token, code.slice(0, -1), 'recovery'), 401, 'INVALID_MFA_CODE')
    expect((await status(app, auth)).recovery_codes_remaining).toBe(10)
  })

  test('a TOTP code is not a recovery code, nor a recovery code a TOTP code', async () => {
    const { user, secret, recoveryCodes } = await totpUser()
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'recovery'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, mfa_token, recoveryCodes[0]!, 'totp'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp')).status).toBe(200)
  })

  test('codes are bound to their user', async () => {
    const alice = await totpUser()
    const bob = await totpUser()
    const { mfa_token } = await challenge(app, alice.user.email)
    await expectError(await verify(app, mfa_token, bob.recoveryCodes[0]!, 'recovery'), 401, 'INVALID_MFA_CODE')
    expect((await status(app, bob.auth)).recovery_codes_remaining).toBe(10)
  })

  test('a new confirm replaces the set: the old codes stop working, the new ones work', async () => {
    const { user, auth, secret, recoveryCodes: old } = await totpUser()
    // Spend one of the old set so the count shows the replacement.
    const first = await challenge(app, user.email)
    expect((await verify(app, first.mfa_token, old[0]!, 'recovery')).status).toBe(200)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(9)

    app.clock.advance(30_000)
    const fresh = await enrollSmsViaLog(app, auth, '+15005550006', totpStepUp(app, secret))
    expect(fresh).toHaveLength(10)
    expect(fresh.filter((code) => old.includes(code))).toEqual([])
    expect((await status(app, auth)).recovery_codes_remaining).toBe(10)

    const { mfa_token } = await challenge(app, user.email)
    for (const code of old.slice(1, 4)) await expectError(await verify(app, mfa_token, code, 'recovery'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, mfa_token, fresh[0]!, 'recovery')).status).toBe(200)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(9)
  })

  test('re-enrolling TOTP after removal issues a new set; the codes of the removed one are gone', async () => {
    const { user, auth, secret, recoveryCodes: old } = await totpUser()
    app.clock.advance(30_000)
    expect(
      (await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: totpAt(secret, app.clock.now()) }, auth)).status,
    ).toBe(204)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(0)
    app.clock.advance(30_000)
    const again = await enrollTotp(app, auth)
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, old[0]!, 'recovery'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, mfa_token, again.recoveryCodes[0]!, 'recovery')).status).toBe(200)
  })

  test('removing one of two methods keeps the recovery codes', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    const smsCodes = await enrollSmsViaLog(app, auth, '+15005550006')
    const { secret, recoveryCodes } = await enrollTotp(app, auth, recoveryStepUp(smsCodes[0]!))
    app.clock.advance(30_000)
    expect(
      (await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: totpAt(secret, app.clock.now()) }, auth)).status,
    ).toBe(204)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(10)
    const { mfa_token, mfa_methods } = await challenge(app, users.agent.user.email)
    expect(mfa_methods).toEqual(['sms'])
    expect((await verify(app, mfa_token, recoveryCodes[0]!, 'recovery')).status).toBe(200)
    // A user without MFA has no recovery codes to use: login gives tokens straight away.
    expect((await send(app, 'DELETE', '/api/v1/auth/mfa/sms', { password: PASSWORD }, auth)).status).toBe(204)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(0)
    expect((await json<TokenBody>(await login(app, users.agent.user.email))).access_token).toBeString()
  })
})
