// Audit of MFA: mfa.challenge, mfa.verify.success/failure (with reason), mfa.enroll (details.method), mfa.factor_changed, mfa.remove via GET /api/v1/audit-logs — and no record holds a code, a secret, a token or a password.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import { challenge, expectError, freshOrg, lastSmsCode, send, totpAt, verify, wrongTotp, type EnrolledBody } from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

interface AuditRecord {
  id: string
  event: string
  outcome: 'success' | 'failure'
  reason: string | null
  actor: { type: string; id: string | null }
  target: { type: string; id: string | null } | null
  details: Record<string, unknown>
  organization_id: string | null
  ip: string | null
  request_id: string | null
  hash: string
  prev_hash: string
}

const { users, org } = await freshOrg(app)
const agent = users.agent
const WRONG_PASSWORD = 'not-the-password-but-close'
const PHONE = '+15005550006'

/** Everything secret the flows below handled: none of it may show up in an audit record. */
const secrets = { long: new Set<string>([PASSWORD, WRONG_PASSWORD]), codes: new Set<string>() }

async function auditLogs(query: string): Promise<AuditRecord[]> {
  const all: AuditRecord[] = []
  let token = ''
  do {
    const response = await send(
      app,
      'GET',
      `/api/v1/audit-logs?page_size=100${query ? `&${query}` : ''}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
      undefined,
      users.admin.auth,
    )
    expect(response.status).toBe(200)
    const body = await json<{ audit_logs: AuditRecord[]; next_page_token: string }>(response)
    all.push(...body.audit_logs)
    token = body.next_page_token
  } while (token)
  return all
}

const byEvent = async (event: string) => (await auditLogs(`event=${encodeURIComponent(event)}`)).filter((r) => r.actor.id === agent.user.id)

beforeAll(async () => {
  const auth = agent.auth
  // TOTP enrollment: one wrong code, then the right one.
  const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
  secrets.long.add(secret)
  const wrongAtEnroll = wrongTotp(secret, app.clock.now())
  const rightAtEnroll = totpAt(secret, app.clock.now())
  secrets.codes.add(wrongAtEnroll).add(rightAtEnroll)
  await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: wrongAtEnroll }, auth), 401, 'INVALID_MFA_CODE')
  const enrolled = await json<EnrolledBody>(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: rightAtEnroll }, auth))
  for (const code of enrolled.recovery_codes) secrets.long.add(code).add(code.replaceAll('-', ''))

  // A login: a wrong code, then the right one.
  app.clock.advance(30_000)
  const first = await challenge(app, agent.user.email)
  secrets.long.add(first.mfa_token).add(first.mfa_token.slice(4))
  const wrong = wrongTotp(secret, app.clock.now())
  const right = totpAt(secret, app.clock.now())
  secrets.codes.add(wrong).add(right)
  await expectError(await verify(app, first.mfa_token, wrong, 'totp'), 401, 'INVALID_MFA_CODE')
  expect((await verify(app, first.mfa_token, right, 'totp')).status).toBe(200)

  // SMS added to TOTP (a wrong code first), with the step-up (password and a TOTP code); a login with a recovery code.
  app.clock.advance(30_000)
  expect((await send(app, 'POST', '/api/v1/auth/mfa/sms', { phone: PHONE }, auth)).status).toBe(202)
  const smsCode = lastSmsCode(app, PHONE)
  const wrongSms = String((Number(smsCode) + 1) % 1_000_000).padStart(6, '0')
  const stepUpCode = totpAt(secret, app.clock.now())
  secrets.codes.add(smsCode).add(wrongSms).add(stepUpCode)
  const stepUp = { password: PASSWORD, current_method: 'totp', current_code: stepUpCode }
  await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: wrongSms, ...stepUp }, auth), 401, 'INVALID_MFA_CODE')
  const smsEnrolled = await json<EnrolledBody>(await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: smsCode, ...stepUp }, auth))
  for (const code of smsEnrolled.recovery_codes) secrets.long.add(code).add(code.replaceAll('-', ''))
  const second = await challenge(app, agent.user.email)
  secrets.long.add(second.mfa_token).add(second.mfa_token.slice(4))
  await expectError(await verify(app, second.mfa_token, enrolled.recovery_codes[0]!, 'recovery'), 401, 'INVALID_MFA_CODE')
  expect((await verify(app, second.mfa_token, smsEnrolled.recovery_codes[0]!, 'recovery')).status).toBe(200)

  // An SMS login.
  app.clock.advance(30_000)
  const third = await challenge(app, agent.user.email)
  expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token: third.mfa_token })).status).toBe(202)
  const loginSms = lastSmsCode(app, PHONE)
  secrets.codes.add(loginSms)
  expect((await verify(app, third.mfa_token, loginSms, 'sms')).status).toBe(200)

  // Removal of TOTP: a wrong password, a wrong code, then both right; then SMS.
  app.clock.advance(30_000)
  const removeCode = totpAt(secret, app.clock.now())
  const removeWrong = wrongTotp(secret, app.clock.now())
  secrets.codes.add(removeCode).add(removeWrong)
  await expectError(
    await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: WRONG_PASSWORD, code: removeCode }, auth),
    400,
    'VALIDATION_FAILED',
    ['password'],
  )
  await expectError(
    await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: removeWrong }, auth),
    401,
    'INVALID_MFA_CODE',
  )
  expect((await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: removeCode }, auth)).status).toBe(204)
  expect((await send(app, 'DELETE', '/api/v1/auth/mfa/sms', { password: PASSWORD }, auth)).status).toBe(204)
})

describe('records', () => {
  test('mfa.challenge at each login of a user with MFA, with the methods offered', async () => {
    const records = await byEvent('mfa.challenge')
    expect(records).toHaveLength(3)
    for (const r of records) {
      expect(r).toMatchObject({
        outcome: 'success',
        organization_id: org.id,
        actor: { type: 'user', id: agent.user.id },
        target: { type: 'user', id: agent.user.id },
      })
    }
    // Newest first.
    expect(records.map((r) => r.details.methods)).toEqual([['totp', 'sms'], ['totp', 'sms'], ['totp']])
  })

  test('mfa.verify.success with the method of each completed login', async () => {
    const records = await byEvent('mfa.verify.success')
    expect(records.map((r) => r.details.method)).toEqual(['sms', 'recovery', 'totp'])
    for (const r of records) expect(r).toMatchObject({ outcome: 'success', target: { type: 'user', id: agent.user.id } })
    // Each completed login is a login.success too, with the amr of its method.
    const logins = await byEvent('login.success')
    expect(logins.slice(0, 3).map((r) => r.details.amr)).toEqual([
      ['pwd', 'sms', 'mfa'],
      ['pwd', 'mfa'],
      ['pwd', 'otp', 'mfa'],
    ])
  })

  test('mfa.verify.failure with its reason and method', async () => {
    const records = await byEvent('mfa.verify.failure')
    expect(records).toHaveLength(2)
    for (const r of records)
      expect(r).toMatchObject({ outcome: 'failure', reason: 'wrong_code', target: { type: 'user', id: agent.user.id } })
    expect(records.map((r) => r.details.method)).toEqual(['recovery', 'totp'])
  })

  test('mfa.enroll with details.method, failures with their reason', async () => {
    const records = await byEvent('mfa.enroll')
    const summary = records.map((r) => ({ outcome: r.outcome, reason: r.reason, method: r.details.method }))
    expect(summary).toEqual([
      { outcome: 'failure', reason: 'wrong_code', method: 'sms' },
      { outcome: 'success', reason: null, method: 'totp' },
      { outcome: 'failure', reason: 'wrong_code', method: 'totp' },
    ])
    // The number, if any, only masked.
    for (const r of records) expect(JSON.stringify(r)).not.toContain(PHONE)
  })

  test('mfa.factor_changed when a factor is added to one already on, with the step-up method', async () => {
    const records = await byEvent('mfa.factor_changed')
    expect(records.map((r) => ({ outcome: r.outcome, method: r.details.method, step_up: r.details.step_up }))).toEqual([
      { outcome: 'success', method: 'sms', step_up: 'totp' },
    ])
    expect(JSON.stringify(records)).not.toContain(PHONE)
  })

  test('mfa.remove for each method, failures with their reason', async () => {
    const records = await byEvent('mfa.remove')
    const summary = records.map((r) => ({ outcome: r.outcome, reason: r.reason, method: r.details.method }))
    expect(summary).toEqual([
      { outcome: 'success', reason: null, method: 'sms' },
      { outcome: 'success', reason: null, method: 'totp' },
      { outcome: 'failure', reason: 'wrong_code', method: 'totp' },
      { outcome: 'failure', reason: 'wrong_password', method: 'totp' },
    ])
  })

  test('a record carries its request id and its place in the chain', async () => {
    const [record] = await byEvent('mfa.remove')
    expect(record!.request_id).toBeString()
    expect(record!.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(record!.prev_hash).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('no secrets', () => {
  const leaks = (text: string) => [
    ...[...secrets.long].filter((secret) => text.toLowerCase().includes(secret.toLowerCase())),
    // Six digits on their own (an epoch in milliseconds would contain any six digits, so only whole numbers count).
    ...[...secrets.codes].filter((code) => new RegExp(`(^|\\D)${code}(\\D|$)`).test(text)),
  ]

  test('the flows produced secrets to look for', () => {
    expect(secrets.long.size).toBeGreaterThan(40)
    expect(secrets.codes.size).toBeGreaterThanOrEqual(6)
  })

  test('no record the API lists holds a code, a secret, a token or a password', async () => {
    const records = await auditLogs('')
    expect(records.length).toBeGreaterThan(20)
    for (const record of records) {
      const { hash: _hash, prev_hash: _prev, ...rest } = record
      expect({ id: record.id, event: record.event, leaks: leaks(JSON.stringify(rest)) }).toEqual({
        id: record.id,
        event: record.event,
        leaks: [],
      })
    }
  })

  test('nor does the server log, but for the SMS codes the log provider exists to show', () => {
    const smsLines = new Set(app.logs.records().flatMap((r, i) => (r.msg === 'sms (SMS_PROVIDER=log)' ? [i] : [])))
    expect(smsLines.size).toBe(2)
    app.logs.lines.forEach((line, i) => {
      if (smsLines.has(i)) return
      expect({ line: i, leaks: leaks(line) }).toEqual({ line: i, leaks: [] })
    })
  })

  test('no row of the audit table (any organization, any column) holds one either', async () => {
    const rows = await app.context.db.raw.all<Record<string, unknown>>('SELECT * FROM audit_logs')
    expect(rows.length).toBeGreaterThan(20)
    for (const row of rows) {
      const text = Object.entries(row)
        .filter(([key]) => key !== 'hash' && key !== 'prev_hash' && key !== 'created_at')
        .map(([, value]) => String(value))
        .join('\u0000')
      expect({ id: row.id, event: row.event, leaks: leaks(text) }).toEqual({ id: row.id, event: row.event, leaks: [] })
    }
  })
})
