// The dashboard in a real headless Chromium against the compiled binary, offline: the page and its files
// come from the binary, nothing breaks its Content-Security-Policy, a user signs in with a password (and
// TOTP or a recovery code when enrolled) and sees who is signed in, signs out, and a reload keeps no token; axe finds no serious or critical
// problem, in light and in dark. (Both engines: the sign-in goes through the API.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { tempDir } from '../../helpers/app.ts'
import { CHROMIUM, offlineContext } from '../../helpers/offline-browser.ts'
import { compiledBinary } from '../../helpers/binary.ts'
import { type RunningServer, startServer } from '../../helpers/process.ts'
import { totpAt } from '../../helpers/totp.ts'

const IN_CI = process.env.CI === 'true'
if (!CHROMIUM && !IN_CI) console.warn('dashboard browser.test.ts: skipping: no `chromium` on PATH (apt-get install chromium)')
if (!CHROMIUM && IN_CI)
  test('Chromium is installed (CI=true: the browser test must run)', () => {
    throw new Error('no `chromium` on PATH: .ci/run installs it with apt-get install chromium')
  })

const ADMIN = { email: 'admin@dashboard.test', password: 'dashboard-password-1', name: 'Admin' }

describe.skipIf(!CHROMIUM)('the dashboard in headless Chromium, offline', () => {
  const dataDir = tempDir('switchboard-dashboard-')
  let server: RunningServer
  let browser: Browser
  let context: BrowserContext
  const problems: string[] = []
  const refused: string[] = []

  beforeAll(async () => {
    server = await startServer(
      [await compiledBinary(), 'serve'],
      { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      dataDir,
    )
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    context = await offlineContext(browser, new URL(server.url).origin, refused)
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function open(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await context.newPage()
    await page.emulateMedia({ colorScheme })
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${path}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`${path}: ${error.message}`))
    await page.goto(`${server.url}${path}`)
    return page
  }

  test('/ leads to the sign-in; a password signs in, the user is shown, and signing out ends it', async () => {
    const page = await open('/')
    expect(new URL(page.url()).pathname).toBe('/app/')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\S/)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    expect(await page.locator('main').textContent()).toContain(ADMIN.email)
    // Signing out revokes the token (POST /api/v1/auth/logout) and shows the sign-in again.
    const logout = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'))
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect((await logout).status()).toBe(204)
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    // Nothing a page script can read keeps the token: a reload asks to sign in again.
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, ''])
    await page.reload()
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
    await page.close()
    // The one error the browser logs is its own note of the refused wrong password.
    expect({ problems, refused }).toEqual({
      problems: ['/: Failed to load resource: the server responded with a status of 401 (Unauthorized)'],
      refused: [],
    })
    problems.length = 0
  })

  /** A user made through the API with TOTP turned on: its secret and its recovery codes. */
  async function userWithTotp(email: string) {
    const call = async (path: string, token: string | undefined, body?: unknown) => {
      const reply = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect({ path, status: reply.status }).toMatchObject({ path, status: path === '/api/v1/users' ? 201 : 200 })
      return (await reply.json()) as Record<string, unknown>
    }
    const admin = (await call('/api/v1/auth/login', undefined, { email: ADMIN.email, password: ADMIN.password })).access_token as string
    await call('/api/v1/users', admin, { email, name: 'Tess Totp', password: ADMIN.password, role: 'admin' })
    const own = (await call('/api/v1/auth/login', undefined, { email, password: ADMIN.password })).access_token as string
    const { secret } = (await call('/api/v1/auth/mfa/totp', own)) as { secret: string }
    const confirmed = await call('/api/v1/auth/mfa/totp/confirm', own, { code: totpAt(secret, Date.now()) })
    return { secret, recoveryCodes: confirmed.recovery_codes as string[], enrolledAt: Date.now() }
  }

  test('a user with TOTP signs in with a code from the authenticator, or with a recovery code', async () => {
    const email = 'tess@dashboard.test'
    const { secret, recoveryCodes, enrolledAt } = await userWithTotp(email)
    const page = await open('/app/')
    const signIn = async () => {
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(ADMIN.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Second step' }).waitFor({ timeout: 20_000 })
    }
    await signIn()
    expect(await page.getByLabel('Method').locator('option').allTextContents()).toEqual(['Authenticator app', 'Recovery code'])
    const grave = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(grave.map((v) => `${v.id}: ${v.help}`)).toEqual([])
    // A code is good once: the one that confirmed the enrollment is spent, so the next time step's is used.
    await Bun.sleep(Math.max(0, (Math.floor(enrolledAt / 30_000) + 1) * 30_000 - Date.now() + 200))
    await page.getByLabel('Code').fill(totpAt(secret, Date.now()))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    expect(await page.locator('main').textContent()).toContain(email)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn()
    await page.getByLabel('Method').selectOption('recovery')
    await page.getByLabel('Code').fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 })
    await page.close()
    expect({ problems, refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)

  for (const scheme of ['light', 'dark'] as const)
    test(`axe: no serious or critical problem on the sign-in page (${scheme})`, async () => {
      const page = await open('/app/', scheme)
      await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
      const results = await new AxeBuilder({ page }).analyze()
      const grave = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      expect(grave.map((v) => `${v.id}: ${v.help}`)).toEqual([])
      await page.close()
    })
})
