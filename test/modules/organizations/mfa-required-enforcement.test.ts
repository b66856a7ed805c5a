// Turning `mfa_required` on (issue 12, item 13): the live sessions of every user without MFA end at
// once (access tokens refused, refresh tokens dead, audited as session.ended/mfa_required), their
// personal access tokens answer 403 MFA_ENROLLMENT_REQUIRED until they enroll and then work again
// without being re-issued; users with MFA keep everything.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { enrollTotp } from '../mfa/helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

type Auth = Record<string, string>
const send = (method: string, path: string, auth: Auth, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const refresh = (refresh_token: string) => send('POST', '/api/v1/auth/refresh', {}, { refresh_token })

async function createPat(auth: Auth): Promise<string> {
  const response = await send('POST', '/api/v1/api-keys', auth, {
    name: 'integration',
    expires_at: new Date(app.clock.now() + 30 * 86_400_000).toISOString(),
  })
  expect(response.status).toBe(201)
  return (await json<{ token: string }>(response)).token
}

async function expectCode(response: Response, status: number, code: string) {
  expect({ status: response.status, code: (await json<{ code: string }>(response)).code }).toEqual({ status, code })
}

let orgs = 0
async function scenario() {
  const seeded = await seedOrganization(app, `enforce${++orgs}`)
  const { users } = seeded
  // The supervisor has MFA; everyone else does not.
  await enrollTotp(app, users.supervisor.auth)
  const pats = { agent: await createPat(users.agent.auth), supervisor: await createPat(users.supervisor.auth) }
  return { ...seeded, pats }
}

const turnOn = (auth: Auth) => send('PATCH', '/api/v1/organization/security', auth, { mfa_required: true })

describe('turning mfa_required on', () => {
  test('ends the sessions of users without MFA: access token 401, refresh 401; users with MFA keep theirs', async () => {
    const { users } = await scenario()
    // The super admin turning it on has no MFA either: the PATCH answers, then that session is over too.
    const patched = await turnOn(users.super_admin.auth)
    expect(patched.status).toBe(200)
    expect((await json(patched)).mfa_required).toBe(true)
    for (const user of [users.agent, users.admin, users.super_admin]) {
      await expectCode(await send('GET', '/api/v1/auth/mfa', user.auth), 401, 'TOKEN_INVALID')
      await expectCode(await refresh(user.refreshToken), 401, 'TOKEN_INVALID')
    }
    expect((await send('GET', '/api/v1/me', users.supervisor.auth)).status).toBe(200)
    expect((await refresh(users.supervisor.refreshToken)).status).toBe(200)
  })

  test('suspends PATs of users without MFA (403 saying so) until they enroll; then the same PAT works', async () => {
    const { users, pats } = await scenario()
    expect((await send('GET', '/api/v1/me', { 'x-api-key': pats.agent })).status).toBe(200)
    expect((await turnOn(users.super_admin.auth)).status).toBe(200)

    for (const header of [{ 'x-api-key': pats.agent }, bearer(pats.agent)]) {
      const refused = await send('GET', '/api/v1/me', header)
      expect(refused.status).toBe(403)
      const body = await json<{ code: string; message: string }>(refused)
      expect(body.code).toBe('MFA_ENROLLMENT_REQUIRED')
      expect(body.message).toContain('enrolls')
    }
    // The supervisor, who has MFA, keeps using theirs.
    expect((await send('GET', '/api/v1/me', { 'x-api-key': pats.supervisor })).status).toBe(200)

    // The agent signs in again: tokens for the enrollment routes only; enrolls TOTP with them.
    const signIn = await json<{ access_token: string; mfa_enrollment_required?: true }>(
      await send('POST', '/api/v1/auth/login', {}, { email: users.agent.user.email, password: PASSWORD }),
    )
    expect(signIn.mfa_enrollment_required).toBe(true)
    await enrollTotp(app, bearer(signIn.access_token))
    // The same PAT, never re-issued, works again.
    expect((await send('GET', '/api/v1/me', { 'x-api-key': pats.agent })).status).toBe(200)
  })

  test('audited: one session.ended (reason mfa_required) per session ended, by whoever turned it on', async () => {
    const { users } = await scenario()
    await enrollTotp(app, users.admin.auth)
    expect((await turnOn(users.admin.auth)).status).toBe(200)
    const response = await send('GET', '/api/v1/audit-logs?event=session.ended&page_size=100', users.admin.auth)
    expect(response.status).toBe(200)
    const records = (await json<{ audit_logs: { reason: string; actor: { id: string }; details: { user_id: string } }[] }>(response))
      .audit_logs
    const ended = records.filter((r) => r.reason === 'mfa_required' && r.actor.id === users.admin.user.id)
    const withoutMfa = [users.super_admin, users.agent, users.viewer].map((u) => u.user.id)
    expect(ended.map((r) => r.details.user_id).sort()).toEqual(withoutMfa.sort())
  })

  test('only the switch from off to on ends sessions: a PATCH that leaves it on ends nothing more', async () => {
    const { users } = await scenario()
    await enrollTotp(app, users.admin.auth)
    expect((await turnOn(users.admin.auth)).status).toBe(200)
    // The agent signs in again (enrollment-only tokens); another PATCH with mfa_required true leaves them working.
    const signIn = await json<{ access_token: string }>(
      await send('POST', '/api/v1/auth/login', {}, { email: users.agent.user.email, password: PASSWORD }),
    )
    expect((await turnOn(users.admin.auth)).status).toBe(200)
    expect((await send('GET', '/api/v1/auth/mfa', bearer(signIn.access_token))).status).toBe(200)
  })

  test('turning it off again lifts the PAT suspension', async () => {
    const { users, pats } = await scenario()
    await enrollTotp(app, users.admin.auth)
    expect((await turnOn(users.admin.auth)).status).toBe(200)
    expect((await send('GET', '/api/v1/me', { 'x-api-key': pats.agent })).status).toBe(403)
    expect((await send('PATCH', '/api/v1/organization/security', users.admin.auth, { mfa_required: false })).status).toBe(200)
    expect((await send('GET', '/api/v1/me', { 'x-api-key': pats.agent })).status).toBe(200)
  })
})
