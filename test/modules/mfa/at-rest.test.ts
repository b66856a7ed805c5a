// Secrets at rest: the TOTP secret is sealed (never in clear in the SQLite files, nor in any value of the PostgreSQL database), recovery codes, SMS codes and mfa_tokens are stored only as hashes.
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { json, makeTestApp } from '../../helpers/app.ts'
import { base32Decode, challenge, expectError, freshOrg, lastSmsCode, send, totpAt } from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

/**
 * Every byte SQLite has on disk for the database: the main file, the WAL and the shared memory index. On
 * PostgreSQL, whose files are the server's, every value of every table of the app's database.
 */
async function databaseBytes(): Promise<Buffer> {
  if (app.context.db.engine === 'postgres') {
    const { raw } = app.context.db
    const tables = await raw.all<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    )
    expect(tables.length).toBeGreaterThan(10)
    const rows = await Promise.all(tables.map(({ name }) => raw.all<Record<string, unknown>>(`SELECT * FROM "${name}"`)))
    return Buffer.concat(
      rows.flat().flatMap((row) => Object.values(row).map((v) => (v instanceof Uint8Array ? v : Buffer.from(String(v))))),
    )
  }
  return Buffer.concat(
    readdirSync(app.dataDir)
      .filter((name) => name.startsWith('switchboard.db'))
      .map((name) => readFileSync(join(app.dataDir, name))),
  )
}

const onDisk = async (needle: string | Buffer) =>
  (await databaseBytes()).includes(typeof needle === 'string' ? Buffer.from(needle) : needle)

/** Every column of every row of a table, as text. */
async function tableText(table: string, where = '1 = 1', params: string[] = []): Promise<string> {
  return (await app.context.db.raw.all<Record<string, unknown>>(`SELECT * FROM ${table} WHERE ${where}`, params))
    .map((row) => Object.values(row).map(String).join('\u0000'))
    .join('\n')
}

/** The forms a base32 TOTP secret could be written in. */
function secretForms(secret: string): string[] {
  const raw = base32Decode(secret)
  return [
    secret,
    secret.toLowerCase(),
    secret.replace(/=+$/, ''),
    raw.toString('hex'),
    raw.toString('base64'),
    raw.toString('base64url'),
    Buffer.from(secret).toString('base64'),
  ]
}

describe('TOTP secret', () => {
  test('sealed from the start of the enrollment: not in mfa_factors nor anywhere in the database files', async () => {
    const { users } = await freshOrg(app)
    // The scan does see plain data: the user's e-mail is in the files.
    expect(await onDisk(users.agent.user.email)).toBe(true)

    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
    const pending = (await app.context.db.raw.get<{ pending_secret_encrypted: string | null }>(
      "SELECT pending_secret_encrypted FROM mfa_factors WHERE user_id = ? AND method = 'totp'",
      [users.agent.user.id],
    ))!
    expect(pending.pending_secret_encrypted).toBeString()
    const pendingText = await tableText('mfa_factors', 'user_id = ?', [users.agent.user.id])
    for (const form of secretForms(secret)) expect(pendingText).not.toContain(form)

    expect(
      (await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, users.agent.auth)).status,
    ).toBe(200)
    const row = (await app.context.db.raw.get<{ secret_encrypted: string | null; pending_secret_encrypted: string | null }>(
      "SELECT secret_encrypted, pending_secret_encrypted FROM mfa_factors WHERE user_id = ? AND method = 'totp'",
      [users.agent.user.id],
    ))!
    expect(row.secret_encrypted).toBeString()
    expect(row.pending_secret_encrypted).toBeNull()
    const text = await tableText('mfa_factors')
    for (const form of secretForms(secret)) expect(text).not.toContain(form)
    for (const form of secretForms(secret)) expect({ form, onDisk: await onDisk(form) }).toEqual({ form, onDisk: false })
    expect(await onDisk(base32Decode(secret))).toBe(false)
  })

  test('a sealed secret is bound to its user: copied onto another user, it does not verify', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
    expect(
      (await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, users.agent.auth)).status,
    ).toBe(200)
    // The viewer starts an enrollment; someone with database access swaps in the agent's sealed secret.
    expect((await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.viewer.auth)).status).toBe(200)
    await app.context.db.raw.run(
      "UPDATE mfa_factors SET pending_secret_encrypted = (SELECT secret_encrypted FROM mfa_factors WHERE user_id = ? AND method = 'totp') WHERE user_id = ? AND method = 'totp'",
      [users.agent.user.id, users.viewer.user.id],
    )
    app.clock.advance(30_000)
    const response = await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, users.viewer.auth)
    expect(response.status).not.toBe(200)
    const viewer = await json<{ totp: { enabled: boolean } }>(await send(app, 'GET', '/api/v1/auth/mfa', undefined, users.viewer.auth))
    expect(viewer.totp.enabled).toBe(false)
  })
})

describe('hashes only', () => {
  test('recovery codes: 10 rows of hashes, no code in the table or the files', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
    const { recovery_codes: codes } = await json<{ recovery_codes: string[] }>(
      await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, users.agent.auth),
    )
    const rows = await app.context.db.raw.all<{ code_hash: string }>('SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?', [
      users.agent.user.id,
    ])
    expect(rows).toHaveLength(10)
    for (const row of rows) expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(rows.map((r) => r.code_hash)).size).toBe(10)
    const text = await tableText('mfa_recovery_codes')
    for (const code of codes) {
      for (const form of [code, code.replaceAll('-', ''), code.toUpperCase(), code.replaceAll('-', '').toUpperCase()]) {
        expect(text).not.toContain(form)
        expect({ form, onDisk: await onDisk(form) }).toEqual({ form, onDisk: false })
      }
    }
  })

  test('mfa_tokens: the challenge row holds a hash, the token is nowhere in the files', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
    expect(
      (await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, users.agent.auth)).status,
    ).toBe(200)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    const rows = await app.context.db.raw.all<{ token_hash: string }>('SELECT token_hash FROM mfa_challenges WHERE user_id = ?', [
      users.agent.user.id,
    ])
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    const random = mfa_token.slice('mfa_'.length)
    expect(await tableText('mfa_challenges')).not.toContain(random)
    expect(await onDisk(random)).toBe(false)
    expect(await onDisk(Buffer.from(random, 'base64url'))).toBe(false)
  })

  test('SMS codes: enrollment and login codes are stored as hashes', async () => {
    const { users } = await freshOrg(app)
    const phone = '+15005550006'
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms', { phone }, users.agent.auth)).status).toBe(202)
    const enrollCode = lastSmsCode(app, phone)
    const factor = (await app.context.db.raw.get<{ pending_code_hash: string }>(
      "SELECT pending_code_hash FROM mfa_factors WHERE user_id = ? AND method = 'sms'",
      [users.agent.user.id],
    ))!
    expect(factor.pending_code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(await tableText('mfa_factors', 'user_id = ?', [users.agent.user.id])).not.toMatch(new RegExp(`(^|\\D)${enrollCode}(\\D|$)`))
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: enrollCode }, users.agent.auth)).status).toBe(200)

    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    const loginCode = lastSmsCode(app, phone)
    const row = (await app.context.db.raw.get<{ sms_code_hash: string }>('SELECT sms_code_hash FROM mfa_challenges WHERE user_id = ?', [
      users.agent.user.id,
    ]))!
    expect(row.sms_code_hash).toMatch(/^[0-9a-f]{64}$/)
    const challengeText = (
      await app.context.db.raw.all<Record<string, unknown>>(
        'SELECT id, token_hash, methods, sms_code_hash FROM mfa_challenges WHERE user_id = ?',
        [users.agent.user.id],
      )
    )
      .map((r) => Object.values(r).join(' '))
      .join('\n')
    expect(challengeText).not.toMatch(new RegExp(`(^|\\D)${loginCode}(\\D|$)`))
    // Sent-message records keep no number and no code.
    const sms = await tableText('sms_messages', 'user_id = ?', [users.agent.user.id])
    expect(sms).not.toContain(phone)
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: enrollCode }, users.agent.auth), 409, 'CONFLICT')
  })
})
