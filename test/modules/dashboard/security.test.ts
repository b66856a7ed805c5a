// The dashboard's Security screen in headless Chromium against the compiled binary: my sessions (this one
// marked, ending one or all others, their tokens refused by the API), TOTP enrollment with the recovery
// codes shown once and copied, turning it off; the organization's part (admins only): the IP allowlist
// warns and saves nothing until confirmed, the session limit, and "MFA required", after which a user
// without MFA gets enrollment-only tokens and, in the browser, the enrollment screen. axe in light and dark
// on every state. (Both engines: everything goes through the API.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import {
  ADMIN,
  CHROMIUM,
  type Dashboard,
  expectAccessible,
  openSignedIn,
  PASSWORD,
  startDashboard,
  requireChromium,
} from '../../helpers/dashboard.ts'
import { totpAt } from '../../helpers/totp.ts'

requireChromium('security.test.ts')

/** axe on the page as it is, in light then in dark. */
async function accessibleInBothSchemes(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await expectAccessible(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

describe.skipIf(!CHROMIUM)('the Security screen', () => {
  let dashboard: Dashboard
  let adminToken: string | undefined

  beforeAll(async () => {
    // Many sign-ins from one address in a few seconds: the login rate limit is not under test here.
    dashboard = await startDashboard({ RATE_LIMITS_ENABLED: 'false' })
  }, 180_000)
  afterAll(() => dashboard?.close())

  /** The API as the Super Admin, for checking what the screen saved. */
  async function asAdmin(method: string, path: string) {
    adminToken ??= await dashboard.token(ADMIN.email)
    return dashboard.api(method, path, adminToken)
  }
  const login = (email: string) => dashboard.api('POST', '/api/v1/auth/login', undefined, { email, password: PASSWORD })
  const signedIn = (path: string, email = ADMIN.email) => openSignedIn(dashboard, path, email)

  /** A sign-in through the API with its own user agent (the device the sessions list shows): its access token. */
  async function signInFrom(device: string, email = ADMIN.email): Promise<string> {
    const reply = await fetch(`${dashboard.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': device },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    expect(reply.status).toBe(200)
    return ((await reply.json()) as { access_token: string }).access_token
  }

  test('my sessions: this one marked; ending one, then all the others, and the API refuses their tokens', async () => {
    const phone = await signInFrom('Phone-One/1.0')
    const page = await signedIn('/app/security')
    await page.getByRole('heading', { name: 'My sessions' }).waitFor({ timeout: 20_000 })
    const row = (text: string) => page.getByRole('row').filter({ hasText: text })
    await row('this session').waitFor({ timeout: 20_000 })
    expect(await row('this session').textContent()).toContain('127.0.0.1')
    await row('Phone-One/1.0').waitFor({ timeout: 20_000 })
    await accessibleInBothSchemes(page)

    await row('Phone-One/1.0')
      .getByRole('button', { name: /^End session/ })
      .click()
    await page.getByText('Ended 1 session.').waitFor({ timeout: 20_000 })
    await row('Phone-One/1.0').waitFor({ state: 'detached', timeout: 20_000 })
    expect((await dashboard.api('GET', '/api/v1/me', phone)).status).toBe(401)

    const others = [await signInFrom('Tablet-Two/2.0'), await signInFrom('Laptop-Three/3.0')]
    await page.reload()
    await row('Laptop-Three/3.0').waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'End all other sessions' }).click()
    await page.getByText(/Ended \d+ sessions\./).waitFor({ timeout: 20_000 })
    for (const token of others) expect((await dashboard.api('GET', '/api/v1/me', token)).status).toBe(401)
    // Only this session is left, and it still works.
    await page.getByRole('row').nth(2).waitFor({ state: 'detached', timeout: 20_000 })
    expect(await page.getByRole('row').count()).toBe(2)
    await row('this session').waitFor({ timeout: 20_000 })
    expect(await page.getByRole('button', { name: 'End all other sessions' }).count()).toBe(0)
    await page.close()
    adminToken = undefined
  }, 150_000)

  test('an agent sets up an authenticator app: the key and address to type, a code, the recovery codes once; then turns it off', async () => {
    const email = await dashboard.user('agent')
    const page = await signedIn('/app/security', email)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.url })
    await page.getByRole('heading', { name: 'My multi-factor authentication' }).waitFor({ timeout: 20_000 })
    await page.getByText('Authenticator app: off').waitFor({ timeout: 20_000 })
    // An agent has no organization settings to see.
    expect(await page.getByRole('heading', { name: 'Organization security' }).count()).toBe(0)
    await accessibleInBothSchemes(page)

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click()
    const key = page.locator('code.security-secret')
    await key.waitFor({ timeout: 20_000 })
    const secret = (await key.textContent())!.replaceAll(' ', '')
    const uri = await page.locator('code.security-uri').textContent()
    expect(uri).toStartWith('otpauth://totp/')
    expect(uri).toContain(`secret=${secret}`)
    await accessibleInBothSchemes(page)

    // The code the app showed a moment ago (the step before is accepted too): turning it off below then
    // has a fresh code at once, as a code is good only once.
    await page.getByLabel('Code from the app').fill(totpAt(secret, Date.now() - 30_000))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor({ timeout: 20_000 })
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()
    expect(codes).toHaveLength(10)
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/)
    await page.getByRole('button', { name: 'Copy the codes' }).click()
    await page.getByText('Copied the codes.').waitFor({ timeout: 20_000 })
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(codes.join('\n'))
    await accessibleInBothSchemes(page)
    const own = await login(email)
    expect(own.body).toMatchObject({ mfa_required: true, mfa_methods: ['totp'] })

    await page.getByRole('button', { name: 'I have kept them' }).click()
    await page.getByText('Authenticator app: on').waitFor({ timeout: 20_000 })
    expect(await page.getByText('Recovery codes left: 10').count()).toBe(1)
    await accessibleInBothSchemes(page)

    // Turning it off takes the password and a code from the app.
    await page.getByLabel('Your password').fill(PASSWORD)
    await page.getByLabel('Code from the app').fill(totpAt(secret, Date.now()))
    await page.getByRole('button', { name: 'Turn off the authenticator app' }).click()
    await page.getByText('Authenticator app: off').waitFor({ timeout: 20_000 })
    const after = await login(email)
    expect(after.body.access_token).toBeString()
    await page.close()
  }, 150_000)

  test('the IP allowlist: a list without my address warns and saves nothing; one with it is saved', async () => {
    const settings = async () => (await asAdmin('GET', '/api/v1/organization/security')).body
    const page = await signedIn('/app/security')
    await page.getByRole('heading', { name: 'IP allowlist' }).waitFor({ timeout: 20_000 })
    await page.getByText('Every address is allowed.', { exact: true }).waitFor({ timeout: 20_000 })
    await page.getByText('You signed in from 127.0.0.1.').waitFor({ timeout: 20_000 })
    await accessibleInBothSchemes(page)

    const box = page.getByLabel('Allowed addresses and ranges')
    await box.fill('203.0.113.0/24')
    await page.getByRole('button', { name: 'Save allowlist' }).click()
    const warning = page.getByRole('alert').filter({ hasText: 'does not include the address you are connecting from' })
    await warning.waitFor({ timeout: 20_000 })
    expect(await warning.textContent()).toContain('127.0.0.1')
    expect((await settings()).allowed_ips).toEqual([])
    await accessibleInBothSchemes(page)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await warning.waitFor({ state: 'detached', timeout: 20_000 })
    expect((await settings()).allowed_ips).toEqual([])

    // "Add my address" puts the signed-in address in; that list is saved at once.
    await page.getByRole('button', { name: 'Add my address' }).click()
    expect(await box.inputValue()).toBe('203.0.113.0/24\n127.0.0.1')
    await page.getByRole('button', { name: 'Save allowlist' }).click()
    await page.getByText('Saved: only the listed addresses are allowed.').waitFor({ timeout: 20_000 })
    expect((await settings()).allowed_ips).toEqual(['203.0.113.0/24', '127.0.0.1'])
    await page.getByText('Only these addresses may sign in and use the API: 203.0.113.0/24, 127.0.0.1.').waitFor({ timeout: 20_000 })

    await box.fill('')
    await page.getByRole('button', { name: 'Save allowlist' }).click()
    await page.getByText('Saved: every address is allowed.').waitFor({ timeout: 20_000 })
    expect((await settings()).allowed_ips).toEqual([])
    await page.close()
  }, 150_000)

  test('the session limit is saved, and emptied again', async () => {
    const page = await signedIn('/app/security')
    await page.getByRole('heading', { name: 'Session limit' }).waitFor({ timeout: 20_000 })
    await page.getByText('No limit: a user may be signed in on any number of devices.').waitFor({ timeout: 20_000 })
    await page.getByLabel('Sessions per user').fill('5')
    await page.getByLabel('At the limit').selectOption('deny_new')
    await page.getByRole('button', { name: 'Save session limit' }).click()
    await page.getByText('Session limit saved.').waitFor({ timeout: 20_000 })
    await page.getByText('At most 5 sessions per user. At the limit: refuse the new sign-in.').waitFor({ timeout: 20_000 })
    expect((await asAdmin('GET', '/api/v1/organization/security')).body).toMatchObject({
      max_concurrent_sessions: 5,
      session_limit_policy: 'deny_new',
    })
    await accessibleInBothSchemes(page)
    await page.getByLabel('Sessions per user').fill('')
    await page.getByLabel('At the limit').selectOption('evict_oldest')
    await page.getByRole('button', { name: 'Save session limit' }).click()
    await page.getByText('No limit: a user may be signed in on any number of devices.').waitFor({ timeout: 20_000 })
    expect((await asAdmin('GET', '/api/v1/organization/security')).body).toMatchObject({
      max_concurrent_sessions: null,
      session_limit_policy: 'evict_oldest',
    })
    await page.close()
  }, 150_000)

  test('"MFA required", turned on in the screen: a user without MFA then signs in to enrollment-only tokens', async () => {
    const viewer = await dashboard.user('viewer')
    const page = await signedIn('/app/security')
    await page.getByText('Not required: each user decides whether to turn it on.').waitFor({ timeout: 20_000 })
    // The signed-in admin has no MFA either: the warning says it will be signed out too.
    await page.getByText('Authenticator app: off').waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Require MFA' }).click()
    const warning = page.getByRole('alert').filter({ hasText: 'Every user without MFA will be signed out now' })
    await warning.waitFor({ timeout: 20_000 })
    expect(await warning.textContent()).toContain('You have no MFA yourself: you will be signed out too.')
    await accessibleInBothSchemes(page)
    await page.getByRole('button', { name: 'Require MFA for everyone' }).click()
    await page.getByText('MFA is now required.').waitFor({ timeout: 20_000 })
    await page.getByText('Required: every user must have').waitFor({ timeout: 20_000 })
    await page.close()

    for (const email of [viewer, ADMIN.email]) {
      const tokens = await login(email)
      expect(tokens.body).toMatchObject({ mfa_enrollment_required: true })
      const me = await dashboard.api('GET', '/api/v1/me', tokens.body.access_token as string)
      expect({ status: me.status, code: me.body.code }).toEqual({ status: 403, code: 'MFA_ENROLLMENT_REQUIRED' })
    }
  }, 150_000)

  test('a user who must enroll lands on the enrollment, sets up an authenticator app, and signs in again with it', async () => {
    const page = await dashboard.open('/app/')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Set up multi-factor authentication' }).waitFor({ timeout: 20_000 })
    await page.getByText('Your organization requires multi-factor authentication').waitFor({ timeout: 20_000 })
    await accessibleInBothSchemes(page)
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click()
    const key = page.locator('code.security-secret')
    await key.waitFor({ timeout: 20_000 })
    const secret = (await key.textContent())!.replaceAll(' ', '')
    await accessibleInBothSchemes(page)
    const enrolledAt = Date.now()
    await page.getByLabel('Code from the app').fill(totpAt(secret, enrolledAt))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor({ timeout: 20_000 })
    await accessibleInBothSchemes(page)
    await page.getByRole('button', { name: 'I have kept them' }).click()
    await page.getByRole('button', { name: 'Sign in again' }).click()

    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Second step' }).waitFor({ timeout: 20_000 })
    // A code is good once: the next time step's.
    await Bun.sleep(Math.max(0, (Math.floor(enrolledAt / 30_000) + 1) * 30_000 - Date.now() + 200))
    await page.getByLabel('Code').fill(totpAt(secret, Date.now()))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Authenticator app: on').waitFor({ timeout: 20_000 })
    expect(new URL(page.url()).pathname).toBe('/app/security')
    await page.close()
  }, 180_000)

  test('no console error, CSP violation or outside request', () => {
    // But two the browser logs of refusals the screens are made of: the API's 409 to the unconfirmed
    // allowlist (the warning), and GET /api/v1/me's 403 MFA_ENROLLMENT_REQUIRED (the enrollment screen).
    const expected = [
      '/app/security: Failed to load resource: the server responded with a status of 409 (Conflict)',
      '/app/: Failed to load resource: the server responded with a status of 403 (Forbidden)',
    ]
    expect(dashboard.problems.filter((problem) => !expected.includes(problem))).toEqual([])
    expect(dashboard.refused).toEqual([])
  })
})
