// The dashboard in a real headless Chromium against the compiled binary, offline: the page and its files
// come from the binary, nothing breaks its Content-Security-Policy, a user signs in with a password (and
// TOTP or a recovery code when enrolled), stays signed in across a reload and in a second tab through the
// HttpOnly refresh cookie (no token any page script can read), and signing out ends it; axe finds no
// serious or critical problem, in light and in dark. (Both engines: the sign-in goes through the API.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, CHROMIUM, type Dashboard, expectAccessible, signIn, startDashboard, requireChromium } from '../../helpers/dashboard.ts'
import { totpAt } from '../../helpers/totp.ts'

requireChromium('browser.test.ts')

describe.skipIf(!CHROMIUM)('the dashboard in headless Chromium, offline', () => {
  let dashboard: Dashboard

  beforeAll(async () => {
    dashboard = await startDashboard()
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('/ leads to the sign-in; a password signs in, a reload and a second tab stay signed in, signing out ends it', async () => {
    const { problems, refused } = dashboard
    const page = await dashboard.open('/')
    expect(new URL(page.url()).pathname).toBe('/app/')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\S/)
    await signIn(page, ADMIN.email)
    expect(await page.locator('main').textContent()).toContain(ADMIN.email)
    // The refresh token is an HttpOnly cookie on the refresh path: no page script can read a token.
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, ''])
    const [cookie] = await page.context().cookies()
    expect(cookie).toMatchObject({ name: 'sb_refresh', path: '/api/v1/auth/refresh', httpOnly: true, sameSite: 'Strict' })
    // A reload spends the cookie for a new access token: still signed in, and so is a second tab.
    await page.reload()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    const second = await page.context().newPage()
    await second.goto(`${dashboard.url}/app/`)
    await second.getByText('Signed in as').waitFor({ timeout: 20_000 })
    await second.close()
    // Signing out ends the session (POST /api/v1/auth/logout) and clears the cookie: a reload asks again.
    const logout = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'))
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect((await logout).status()).toBe(204)
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
    expect(await page.context().cookies()).toEqual([])
    await page.reload()
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
    await page.close()
    // The one error the browser logs is its own note of the refused wrong password.
    expect({ problems, refused }).toEqual({
      problems: ['/: Failed to load resource: the server responded with a status of 401 (Unauthorized)'],
      refused: [],
    })
    problems.length = 0
  }, 90_000)

  /** A user made through the API with TOTP turned on: its secret and its recovery codes. */
  async function userWithTotp(email: string) {
    const { api } = dashboard
    const call = async (path: string, token: string | undefined, body?: unknown) => {
      const reply = await api('POST', path, token, body)
      expect({ path, status: reply.status }).toMatchObject({ path, status: path === '/api/v1/users' ? 201 : 200 })
      return reply.body
    }
    const admin = await dashboard.token(ADMIN.email)
    await call('/api/v1/users', admin, { email, name: 'Tess Totp', password: ADMIN.password, role: 'admin' })
    const own = await dashboard.token(email)
    const { secret } = (await call('/api/v1/auth/mfa/totp', own)) as { secret: string }
    const confirmed = await call('/api/v1/auth/mfa/totp/confirm', own, { code: totpAt(secret, Date.now()) })
    return { secret, recoveryCodes: confirmed.recovery_codes as string[], enrolledAt: Date.now() }
  }

  test('a user with TOTP signs in with a code from the authenticator, or with a recovery code', async () => {
    const email = 'tess@dashboard.test'
    const { secret, recoveryCodes, enrolledAt } = await userWithTotp(email)
    const page = await dashboard.open('/app/')
    const start = async () => {
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(ADMIN.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Second step' }).waitFor({ timeout: 20_000 })
    }
    await start()
    expect(await page.getByLabel('Method').locator('option').allTextContents()).toEqual(['Authenticator app', 'Recovery code'])
    await expectAccessible(page)
    // A code is good once: the one that confirmed the enrollment is spent, so the next time step's is used.
    await Bun.sleep(Math.max(0, (Math.floor(enrolledAt / 30_000) + 1) * 30_000 - Date.now() + 200))
    await page.getByLabel('Code').fill(totpAt(secret, Date.now()))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    expect(await page.locator('main').textContent()).toContain(email)
    // The second step asks for the refresh cookie too: a reload stays signed in.
    await page.reload()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await start()
    await page.getByLabel('Method').selectOption('recovery')
    await page.getByLabel('Code').fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)

  for (const colorScheme of ['light', 'dark'] as const)
    test(`axe: no serious or critical problem on the sign-in page (${colorScheme})`, async () => {
      const page = await dashboard.open('/app/', { colorScheme })
      await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
      await expectAccessible(page)
      await page.close()
    })
})
