// Step-up for changing MFA (issue 12, item 12): once a factor is on, moving the SMS number or adding a
// factor needs the password AND a current code (TOTP, a code texted to the current number, or a recovery
// code); an access token alone changes nothing. A move is texted to the old number and audited.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import {
  challenge,
  enrollSmsViaLog,
  enrollTotp,
  expectError,
  freshOrg,
  lastSmsCode,
  loggedSms,
  send,
  status,
  totpAt,
  verify,
  wrongTotp,
  type EnrolledBody,
} from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

const OLD = '+15005550101'
const NEW = '+15005550199'
type Auth = Record<string, string>

const startSms = (auth: Auth, phone: string) => send(app, 'POST', '/api/v1/auth/mfa/sms', { phone }, auth)
const confirmSms = (auth: Auth, body: Record<string, unknown>) => send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', body, auth)
const sendStepUpSms = (auth: Auth) => send(app, 'POST', '/api/v1/auth/mfa/step-up/sms', undefined, auth)

/** A user with SMS on at OLD, the clock past the message throttle. */
async function smsUser() {
  const seeded = await freshOrg(app, 'stepup')
  const auth = seeded.users.agent.auth
  const recoveryCodes = await enrollSmsViaLog(app, auth, OLD)
  app.clock.advance(30_000)
  return { ...seeded, auth, user: seeded.users.agent.user, recoveryCodes }
}

interface AuditRecord {
  event: string
  outcome: string
  reason: string | null
  actor: { id: string | null }
  details: Record<string, unknown>
}

async function auditOf(admin: Auth, event: string, userId: string): Promise<AuditRecord[]> {
  const response = await send(app, 'GET', `/api/v1/audit-logs?event=${event}&page_size=100`, undefined, admin)
  expect(response.status).toBe(200)
  return (await json<{ audit_logs: AuditRecord[] }>(response)).audit_logs.filter((r) => r.actor.id === userId)
}

describe('an access token alone', () => {
  test('cannot move the SMS number: 400 naming the step-up fields; number and recovery codes unchanged', async () => {
    const { auth, user, recoveryCodes } = await smsUser()
    expect((await startSms(auth, NEW)).status).toBe(202)
    const response = await confirmSms(auth, { code: lastSmsCode(app, NEW) })
    const body = await expectError(response, 400, 'VALIDATION_FAILED', ['password', 'current_method', 'current_code'])
    expect(body.errors![0]!.message).toContain('MFA is on')
    expect((await status(app, auth)).sms.phone!.endsWith('0101')).toBe(true)
    expect((await status(app, auth)).recovery_codes_remaining).toBe(10)
    // The owner's recovery codes still work.
    const { mfa_token } = await challenge(app, user.email)
    expect((await verify(app, mfa_token, recoveryCodes[0]!, 'recovery')).status).toBe(200)
  })

  test('cannot add TOTP to SMS (nor replace the recovery codes)', async () => {
    const { auth } = await smsUser()
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    await expectError(
      await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, auth),
      400,
      'VALIDATION_FAILED',
      ['password', 'current_method', 'current_code'],
    )
    expect((await status(app, auth)).totp.enabled).toBe(false)
  })

  test('with a wrong password, or a right password and a wrong or missing code: refused, recorded', async () => {
    const { auth, user, users } = await smsUser()
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    const confirm = (extra: Record<string, unknown>) =>
      send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()), ...extra }, auth)
    await expectError(
      await confirm({ password: 'not the password', current_method: 'recovery', current_code: 'aaaa-bbbb-cccc-dddd' }),
      400,
      'VALIDATION_FAILED',
      ['password'],
    )
    await expectError(
      await confirm({ password: PASSWORD, current_method: 'recovery', current_code: 'aaaa-bbbb-cccc-dddd' }),
      401,
      'INVALID_MFA_CODE',
    )
    await expectError(await confirm({ password: PASSWORD, current_method: 'sms' }), 400, 'VALIDATION_FAILED', ['current_code'])
    // TOTP is not on yet: it cannot prove the change.
    await expectError(
      await confirm({ password: PASSWORD, current_method: 'totp', current_code: totpAt(secret, app.clock.now()) }),
      400,
      'VALIDATION_FAILED',
      ['current_method'],
    )
    expect((await status(app, auth)).totp.enabled).toBe(false)
    const failures = await auditOf(users.admin.auth, 'mfa.enroll', user.id)
    expect(failures.slice(0, 2).map((r) => r.reason)).toEqual(['wrong_current_code', 'wrong_password'])
  })
})

describe('with the password and a current code', () => {
  test('a number move with a code texted to the CURRENT number: accepted, the old number is told, audited', async () => {
    const { auth, user, users, recoveryCodes: old } = await smsUser()
    expect((await startSms(auth, NEW)).status).toBe(202)
    app.clock.advance(30_000)
    const sent = await sendStepUpSms(auth)
    expect(sent.status).toBe(202)
    expect((await json<{ phone: string }>(sent)).phone.endsWith('0101')).toBe(true)
    const stepUpMessage = loggedSms(app).at(-1)!
    expect(stepUpMessage.to).toBe(OLD)
    expect(stepUpMessage.text).toContain('confirm a change')

    const before = loggedSms(app).length
    const response = await confirmSms(auth, {
      code: lastSmsCode(app, NEW),
      password: PASSWORD,
      current_method: 'sms',
      current_code: lastSmsCode(app, OLD),
    })
    expect(response.status).toBe(200)
    const enrolled = await json<EnrolledBody>(response)
    expect(enrolled.recovery_codes).toHaveLength(10)
    expect((await status(app, auth)).sms.phone!.endsWith('0199')).toBe(true)

    // The old number hears of it, through the configured sender (the log provider here).
    const notices = loggedSms(app).slice(before)
    expect(notices).toHaveLength(1)
    expect(notices[0]!.to).toBe(OLD)
    expect(notices[0]!.text).toContain('number was changed')
    expect(notices[0]!.text).toContain('0199')
    expect(notices[0]!.text).not.toContain(NEW)

    const [changed] = await auditOf(users.admin.auth, 'mfa.factor_changed', user.id)
    expect(changed).toMatchObject({ outcome: 'success', details: { method: 'sms', step_up: 'sms' } })
    expect(String(changed!.details.previous_phone).endsWith('0101')).toBe(true)
    expect(String(changed!.details.phone).endsWith('0199')).toBe(true)
    expect(JSON.stringify(changed)).not.toContain(NEW)
    expect(JSON.stringify(changed)).not.toContain(OLD)

    // The old recovery codes are gone; the step-up code was good once.
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, old[1]!, 'recovery'), 401, 'INVALID_MFA_CODE')
  })

  test('TOTP added to SMS with a recovery code: accepted (the code is spent), audited', async () => {
    const { auth, user, users, recoveryCodes } = await smsUser()
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    const response = await send(
      app,
      'POST',
      '/api/v1/auth/mfa/totp/confirm',
      { code: totpAt(secret, app.clock.now()), password: PASSWORD, current_method: 'recovery', current_code: recoveryCodes[0] },
      auth,
    )
    expect(response.status).toBe(200)
    expect((await status(app, auth)).totp.enabled).toBe(true)
    const [changed] = await auditOf(users.admin.auth, 'mfa.factor_changed', user.id)
    expect(changed).toMatchObject({ details: { method: 'totp', step_up: 'recovery' } })
  })

  test('SMS added to TOTP with a TOTP code; nothing is texted to an old number (there is none)', async () => {
    const seeded = await freshOrg(app, 'stepup')
    const auth = seeded.users.agent.auth
    const { secret } = await enrollTotp(app, auth)
    app.clock.advance(30_000)
    expect((await startSms(auth, NEW)).status).toBe(202)
    const before = loggedSms(app).length
    const stepUp = { password: PASSWORD, current_method: 'totp', current_code: totpAt(secret, app.clock.now()) }
    expect((await confirmSms(auth, { code: lastSmsCode(app, NEW), ...stepUp })).status).toBe(200)
    expect(loggedSms(app).length).toBe(before)
  })

  test('a step-up code texted to the current number is good once, and a login code is not one', async () => {
    const { auth, user } = await smsUser()
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    const confirm = (code: string) =>
      send(
        app,
        'POST',
        '/api/v1/auth/mfa/totp/confirm',
        { code: totpAt(secret, app.clock.now()), password: PASSWORD, current_method: 'sms', current_code: code },
        auth,
      )
    // A login's SMS code.
    const { mfa_token } = await challenge(app, user.email)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    await expectError(await confirm(lastSmsCode(app, OLD)), 401, 'INVALID_MFA_CODE')
    app.clock.advance(30_000)
    expect((await sendStepUpSms(auth)).status).toBe(202)
    const code = lastSmsCode(app, OLD)
    expect((await confirm(code)).status).toBe(200)
    // Spent: TOTP is on now, so the same code cannot prove another change.
    app.clock.advance(30_000)
    expect((await startSms(auth, NEW)).status).toBe(202)
    await expectError(
      await confirmSms(auth, { code: lastSmsCode(app, NEW), password: PASSWORD, current_method: 'sms', current_code: code }),
      401,
      'INVALID_MFA_CODE',
    )
  })

  test('POST /step-up/sms without SMS on -> 409', async () => {
    const seeded = await freshOrg(app, 'stepup')
    await enrollTotp(app, seeded.users.agent.auth)
    await expectError(await sendStepUpSms(seeded.users.agent.auth), 409, 'CONFLICT')
  })
})

describe('guesses count', () => {
  test('wrong current codes count in the MFA failure window: after 10, even the right code -> 429', async () => {
    const seeded = await freshOrg(app, 'stepup')
    const auth = seeded.users.agent.auth
    const { secret } = await enrollTotp(app, auth)
    app.clock.advance(30_000)
    expect((await startSms(auth, NEW)).status).toBe(202)
    const attempt = (current_code: string) =>
      confirmSms(auth, { code: lastSmsCode(app, NEW), password: PASSWORD, current_method: 'totp', current_code })
    for (let i = 0; i < 10; i++) await expectError(await attempt(wrongTotp(secret, app.clock.now())), 401, 'INVALID_MFA_CODE')
    const refused = await attempt(totpAt(secret, app.clock.now()))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // The same window guards sign-in: the step-up guesses used it up.
    const { mfa_token } = await challenge(app, seeded.users.agent.user.email)
    expect((await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp')).status).toBe(429)
    expect((await status(app, auth)).sms.enabled).toBe(false)
  })
})

describe('first enrollment stays as it was', () => {
  test('no factor yet: the code alone turns it on', async () => {
    const seeded = await freshOrg(app, 'stepup')
    const auth = seeded.users.agent.auth
    expect((await startSms(auth, NEW)).status).toBe(202)
    expect((await confirmSms(auth, { code: lastSmsCode(app, NEW) })).status).toBe(200)
  })
})
