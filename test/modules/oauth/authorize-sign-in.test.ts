// The sign-in and MFA pages of /oauth2/auth: the login's rules (generic error for wrong credentials,
// the IP allowlist whatever the password, the session limit, MFA with TOTP, recovery and SMS codes, the
// organization's MFA requirement), CSRF on every form, the request checked again on every POST, and a
// client serving only its own organization's users. Each outcome is audited.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { authorizationUrl, callbackOf, locationOf, oauthBrowser, pageOf, registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { totpAt } from '../../helpers/totp.ts'
import { enrollSmsViaLog, enrollTotp, freshOrg, lastSmsCode, wrongTotp } from '../mfa/helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const REDIRECT = 'https://app.example.com/cb'
const { clientId } = await registerClient(app, acme.org.id)

const url = (client = clientId, extra: Record<string, string> = {}) =>
  authorizationUrl(app, { client_id: client, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 's', ...extra })

/** The sign-in page of a new browser. */
async function signInPage(client = clientId) {
  const browser = oauthBrowser(app)
  const page = pageOf(await browser.request(url(client)))
  expect(page.forms.map((f) => f.action)).toEqual(['/oauth2/auth/sign-in'])
  return { browser, page }
}

async function audits(event: string, actorId: string) {
  return app.context.db.raw.all<{ reason: string | null; details: string }>(
    'SELECT reason, details FROM audit_logs WHERE event = ? AND actor_id = ? ORDER BY seq',
    [event, actorId],
  )
}

const browserSessions = async (userId: string) =>
  Number(
    (await app.context.db.raw.get<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE user_id = ? AND kind = 'browser'", [userId]))!.n,
  )

describe('password', () => {
  test('a wrong password, an unknown e-mail and a disabled user get the same 401 form, the e-mail kept, the password not', async () => {
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [acme.users.viewer.user.id])
    const answers: string[] = []
    for (const [email, password] of [
      [acme.users.agent.user.email, 'wrong password'],
      ['nobody@acme.test', PASSWORD],
      [acme.users.viewer.user.email, PASSWORD],
    ] as const) {
      const { browser, page } = await signInPage()
      const again = pageOf(await browser.submit(page, { email, password }))
      expect(again.status).toBe(401)
      expect(again.html).toContain('role="alert"')
      expect(again.html).toContain('aria-describedby="sign-in-error"')
      expect(again.forms[0]!.fields).toContainEqual(['email', email])
      expect(again.html).not.toContain(password)
      answers.push(again.text.replace(email, 'EMAIL'))
    }
    expect(new Set(answers).size).toBe(1)
    expect(answers[0]).toContain('The e-mail address or the password is incorrect.')
    expect((await audits('login.failure', acme.users.agent.user.id)).map((r) => [r.reason, JSON.parse(r.details)])).toEqual([
      ['wrong_password', { via: 'authorization_server', client_id: clientId }],
    ])
    expect((await audits('login.failure', acme.users.viewer.user.id)).map((r) => r.reason)).toEqual(['user_disabled'])
  })

  test('the right password opens a browser session (login.success) and goes on to consent', async () => {
    const { browser, page } = await signInPage()
    const consent = pageOf(await browser.submit(page, { email: acme.users.agent.user.email, password: PASSWORD }))
    expect(consent.forms.map((f) => f.action)).toEqual(['/oauth2/auth/consent'])
    expect(consent.headers.getSetCookie().some((c) => c.startsWith('sb_op='))).toBe(true)
    const success = await audits('login.success', acme.users.agent.user.id)
    expect(JSON.parse(success.at(-1)!.details)).toEqual({ amr: ['pwd'], via: 'authorization_server' })
  })

  test("another organization's user cannot sign in to this client: a 403 page, no session", async () => {
    const { browser, page } = await signInPage()
    const refused = pageOf(await browser.submit(page, { email: globex.users.agent.user.email, password: PASSWORD }))
    expect(refused.status).toBe(403)
    expect(refused.text).toContain('Your account cannot be used with Helpdesk dashboard.')
    expect(browser.cookies.has('sb_op')).toBe(false)
    expect(await browserSessions(globex.users.agent.user.id)).toBe(0)
    expect((await audits('login.failure', globex.users.agent.user.id)).map((r) => r.reason)).toEqual(['other_organization'])
  })
})

describe('the form itself', () => {
  test('without the CSRF token, with a forged one, or without the CSRF cookie: 403, nothing checked', async () => {
    const { browser, page } = await signInPage()
    const fields = { email: acme.users.agent.user.email, password: PASSWORD }
    const sessionsBefore = await browserSessions(acme.users.agent.user.id)
    expect(pageOf(await browser.submit(page, { ...fields, csrf: '' })).status).toBe(403)
    expect(pageOf(await browser.submit(page, { ...fields, csrf: 'A'.repeat(43) })).status).toBe(403)
    const other = await signInPage()
    expect(
      pageOf(await browser.submit(page, { ...fields, csrf: other.page.forms[0]!.fields.find(([n]) => n === 'csrf')![1] })).status,
    ).toBe(403)
    browser.cookies.clear()
    const noCookie = pageOf(await browser.submit(page, fields))
    expect([noCookie.status, noCookie.text]).toEqual([403, expect.stringContaining('This form has expired')])
    expect(await browserSessions(acme.users.agent.user.id)).toBe(sessionsBefore)
  })

  test('the request the form carries is checked again: an altered redirect URI is our error page, a broken one goes back as an error', async () => {
    const { browser, page } = await signInPage()
    const fields = { email: acme.users.agent.user.email, password: PASSWORD }
    const altered = pageOf(await browser.submit(page, { ...fields, redirect_uri: 'https://evil.example/cb' }))
    expect([altered.status, altered.headers.get('location')]).toEqual([400, null])
    const broken = locationOf(await browser.submit(page, { ...fields, response_type: 'token' }))
    expect(callbackOf(broken).params).toMatchObject({ error: 'unsupported_response_type', state: 's' })
  })

  test('an empty field: 400 with the form again', async () => {
    const { browser, page } = await signInPage()
    const again = pageOf(await browser.submit(page, { email: acme.users.agent.user.email, password: '' }))
    expect([again.status, again.text]).toEqual([400, expect.stringContaining('Enter your e-mail address and your password.')])
  })
})

describe('the organization', () => {
  test('IP allowlist: from an address not allowed, the same 403 page for the right and a wrong password', async () => {
    const org = await freshOrg(app, 'ipo')
    const client = await registerClient(app, org.org.id)
    await app.context.db.raw.run('UPDATE organizations SET allowed_ips = ? WHERE id = ?', ['["10.0.0.0/8"]', org.org.id])
    const answers = []
    for (const password of [PASSWORD, 'wrong password']) {
      const { browser, page } = await signInPage(client.clientId)
      const refused = pageOf(await browser.submit(page, { email: org.users.agent.user.email, password }))
      answers.push([refused.status, refused.text])
      expect(browser.cookies.has('sb_op')).toBe(false)
    }
    expect(answers[0]).toEqual([403, expect.stringContaining('are not allowed for this organization')])
    expect(answers[1]).toEqual(answers[0])
  })

  test('session limit deny_new: a clear 403 page, no session', async () => {
    const org = await freshOrg(app, 'lim')
    const client = await registerClient(app, org.org.id)
    // The seeded user already holds one (API) session.
    await app.context.db.raw.run("UPDATE organizations SET max_concurrent_sessions = 1, session_limit_policy = 'deny_new' WHERE id = ?", [
      org.org.id,
    ])
    const { browser, page } = await signInPage(client.clientId)
    const refused = pageOf(await browser.submit(page, { email: org.users.agent.user.email, password: PASSWORD }))
    expect([refused.status, refused.text]).toEqual([
      403,
      expect.stringContaining('You already have 1 active sessions: sign out of one first'),
    ])
    expect(await browserSessions(org.users.agent.user.id)).toBe(0)
  })

  test('an organization requiring MFA: a user without it is told to set it up first', async () => {
    const org = await freshOrg(app, 'req')
    const client = await registerClient(app, org.org.id)
    await app.context.db.raw.run('UPDATE organizations SET mfa_required = ? WHERE id = ?', [true, org.org.id])
    const { browser, page } = await signInPage(client.clientId)
    const refused = pageOf(await browser.submit(page, { email: org.users.agent.user.email, password: PASSWORD }))
    expect([refused.status, refused.text]).toEqual([403, expect.stringContaining('requires two-step verification')])
    expect(await browserSessions(org.users.agent.user.id)).toBe(0)
  })
})

describe('MFA', () => {
  test('TOTP: the code page after the password, a wrong code counted, the right one signs in with amr pwd otp mfa', async () => {
    const org = await freshOrg(app, 'totp')
    const client = await registerClient(app, org.org.id)
    const { secret } = await enrollTotp(app, org.users.agent.auth)
    app.clock.advance(30_000)
    const { browser, page } = await signInPage(client.clientId)
    const mfa = pageOf(await browser.submit(page, { email: org.users.agent.user.email, password: PASSWORD }))
    expect(mfa.forms.map((f) => f.action)).toEqual(['/oauth2/auth/mfa'])
    expect(mfa.html).toContain('autocomplete="one-time-code"')
    const wrong = pageOf(await browser.submit(mfa, { code: wrongTotp(secret, app.clock.now()) }, undefined, '/oauth2/auth/mfa'))
    expect([wrong.status, wrong.text]).toEqual([401, expect.stringContaining('The code is incorrect (4 attempts left)')])
    const consent = pageOf(await browser.submit(wrong, { code: totpAt(secret, app.clock.now()) }, undefined, '/oauth2/auth/mfa'))
    const callback = locationOf(await browser.submit(consent, {}, ['decision', 'allow']))
    const code = callbackOf(callback).params.code!
    const row = await app.context.db.raw.get<{ auth_methods: string }>('SELECT auth_methods FROM oauth_codes WHERE code_hash = ?', [
      new Bun.CryptoHasher('sha256').update(code).digest('hex'),
    ])
    expect(JSON.parse(row!.auth_methods)).toEqual(['pwd', 'otp', 'mfa'])
    const id = org.users.agent.user.id
    expect((await audits('mfa.challenge', id)).length).toBe(1)
    expect((await audits('mfa.verify.failure', id)).map((r) => r.reason)).toEqual(['wrong_code'])
    expect((await audits('mfa.verify.success', id)).map((r) => JSON.parse(r.details))).toEqual([{ method: 'totp' }])
  })

  test('a recovery code is accepted in the same field (amr pwd mfa); five wrong codes send the user back to sign in', async () => {
    const org = await freshOrg(app, 'rcv')
    const client = await registerClient(app, org.org.id)
    const { secret, recoveryCodes } = await enrollTotp(app, org.users.agent.auth)
    app.clock.advance(30_000)
    const browser = oauthBrowser(app)
    const callback = await browser.authorize(url(client.clientId), {
      email: org.users.agent.user.email,
      password: PASSWORD,
      code: recoveryCodes[0]!.toUpperCase(),
    })
    expect(callbackOf(callback).params.code).toBeDefined()
    const success = await audits('login.success', org.users.agent.user.id)
    expect(JSON.parse(success.at(-1)!.details).amr).toEqual(['pwd', 'mfa'])

    const other = await signInPage(client.clientId)
    let page = pageOf(await other.browser.submit(other.page, { email: org.users.agent.user.email, password: PASSWORD }))
    for (let i = 0; i < 5; i++)
      page = pageOf(await other.browser.submit(page, { code: wrongTotp(secret, app.clock.now()) }, undefined, '/oauth2/auth/mfa'))
    expect([page.status, page.forms.map((f) => f.action)]).toEqual([401, ['/oauth2/auth/sign-in']])
    expect(page.text).toContain('sign in again')
  })

  test('SMS: "Text me a code" sends it through the SMS provider, and its code signs in (amr pwd sms mfa)', async () => {
    const org = await freshOrg(app, 'sms')
    const client = await registerClient(app, org.org.id)
    const phone = '+15555550123'
    await enrollSmsViaLog(app, org.users.agent.auth, phone)
    const throttled = await signInPage(client.clientId)
    const early = pageOf(await throttled.browser.submit(throttled.page, { email: org.users.agent.user.email, password: PASSWORD }))
    const refused = pageOf(await throttled.browser.submit(early, {}, undefined, '/oauth2/auth/mfa/sms'))
    expect([refused.status, refused.text]).toEqual([429, expect.stringContaining('A code was sent moments ago')])
    expect(refused.text).toContain('Text me a code')
    // One message per 30 seconds per user: the enrollment's was the last.
    app.clock.advance(31_000)
    const { browser, page } = await signInPage(client.clientId)
    const mfa = pageOf(await browser.submit(page, { email: org.users.agent.user.email, password: PASSWORD }))
    expect(mfa.forms.map((f) => f.action)).toEqual(['/oauth2/auth/mfa', '/oauth2/auth/mfa/sms'])
    expect(mfa.text).toContain('Text me a code')
    const sent = pageOf(await browser.submit(mfa, {}, undefined, '/oauth2/auth/mfa/sms'))
    expect(sent.text).toContain('We sent a code to')
    expect(sent.text).not.toContain(phone)
    const consent = pageOf(await browser.submit(sent, { code: lastSmsCode(app, phone) }, undefined, '/oauth2/auth/mfa'))
    expect(consent.forms.map((f) => f.action)).toEqual(['/oauth2/auth/consent'])
    const success = await audits('login.success', org.users.agent.user.id)
    expect(JSON.parse(success.at(-1)!.details).amr).toEqual(['pwd', 'sms', 'mfa'])
  })

  test('the MFA form is CSRF-protected too, and a made-up challenge sends the user back to sign in', async () => {
    const { browser, page } = await signInPage()
    const forged = pageOf(
      await browser.request('/oauth2/auth/mfa', { form: [...page.forms[0]!.fields, ['mfa_token', 'mfa_x'], ['code', '123456']] }),
    )
    expect(forged.forms.map((f) => f.action)).toEqual(['/oauth2/auth/sign-in'])
    const noCsrf = page.forms[0]!.fields.filter(([n]) => n !== 'csrf')
    expect(
      pageOf(await browser.request('/oauth2/auth/mfa', { form: [...noCsrf, ['mfa_token', 'mfa_x'], ['code', '123456']] })).status,
    ).toBe(403)
  })
})
