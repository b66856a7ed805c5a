// The dashboard's browser tests share this: the compiled binary started on a fresh data folder (the
// engine of SWITCHBOARD_TEST_ENGINE) with a Super Admin, a headless Chromium limited to that origin,
// pages that collect console errors and CSP violations, signing in through the form, axe, and calls
// to the API for setting up what a screen shows.
import { rmSync } from 'node:fs'
import { expect, test } from 'bun:test'
import AxeBuilder from '@axe-core/playwright'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { tempDir } from './app.ts'
import { compiledBinary } from './binary.ts'
import { CHROMIUM, offlineContext } from './offline-browser.ts'
import { type RunningServer, startServer } from './process.ts'

export { CHROMIUM }

/**
 * A browser test file's first call: without Chromium it says it skips (the file's describe.skipIf does),
 * except under CI=true, where a failing test says to install it.
 */
export function requireChromium(file: string): void {
  if (CHROMIUM) return
  if (process.env.CI !== 'true') console.warn(`dashboard ${file}: skipping: no \`chromium\` on PATH (apt-get install chromium)`)
  else
    test('Chromium is installed (CI=true: the browser test must run)', () => {
      throw new Error('no `chromium` on PATH: .ci/run installs it with apt-get install chromium')
    })
}

/** How long a browser test waits for what the user should see. */
export const WAIT = { timeout: 20_000 }

/** `read()` once `ok` holds of it, asked again every 100 ms for up to 20 s; the error shows the last value. */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const end = Date.now() + WAIT.timeout
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > end) throw new Error(`still ${JSON.stringify(value)} after ${WAIT.timeout} ms`)
    await Bun.sleep(100)
  }
}

/** How wide the page's content is (wider than the viewport: the page scrolls sideways). */
export const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth')

export const ADMIN = { email: 'admin@dashboard.test', password: 'dashboard-password-1', name: 'Admin' }
export const PASSWORD = ADMIN.password

export interface Dashboard {
  url: string
  server: RunningServer
  browser: Browser
  /** Console errors and CSP violations of every page opened, as `path: text`. */
  problems: string[]
  /** Requests to any other origin (refused). */
  refused: string[]
  /** A new browser context (its own cookies): a page of it at `path`, in the given colour scheme. */
  open(path: string, options?: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } }): Promise<Page>
  /** The API with a bearer token: `{status, body}`. */
  api(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>
  /** An access token of the user (a login through the API). */
  token(email: string, password?: string): Promise<string>
  /** A user of the Super Admin's organization with `role`, made through the API; returns its e-mail. */
  user(role: string, email?: string): Promise<string>
  close(): Promise<void>
}

/** Starts the binary and Chromium (allow 180 s in beforeAll). `env` adds settings to the server's. */
export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const dataDir = tempDir('switchboard-dashboard-')
  const server = await startServer(
    [await compiledBinary(), 'serve'],
    { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env },
    dataDir,
  )
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  const problems: string[] = []
  const refused: string[] = []
  const origin = new URL(server.url).origin
  let users = 0
  const api: Dashboard['api'] = async (method, path, token, body) => {
    const reply = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await reply.text()
    return { status: reply.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
  }
  const dashboard: Dashboard = {
    url: server.url,
    server,
    browser,
    problems,
    refused,
    async open(path, options = {}) {
      const context: BrowserContext = await offlineContext(browser, origin, refused)
      const page = await context.newPage()
      if (options.viewport) await page.setViewportSize(options.viewport)
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' })
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        // A page with no session asks the refresh cookie first and is told 401: expected, not a problem.
        if (message.text().includes('status of 401') && message.location().url.endsWith('/api/v1/auth/refresh')) return
        problems.push(`${path}: ${message.text()}`)
      })
      page.on('pageerror', (error) => problems.push(`${path}: ${error.message}`))
      page.on('close', () => void context.close().catch(() => undefined))
      await page.goto(`${server.url}${path}`)
      return page
    },
    api,
    async token(email, password = PASSWORD) {
      const { status, body } = await api('POST', '/api/v1/auth/login', undefined, { email, password })
      expect({ email, status }).toEqual({ email, status: 200 })
      return body.access_token as string
    },
    async user(role, email = `${role}-${++users}@dashboard.test`) {
      const admin = await dashboard.token(ADMIN.email)
      const { status } = await api('POST', '/api/v1/users', admin, { email, name: `${role} ${users}`, password: PASSWORD, role })
      expect({ email, status }).toEqual({ email, status: 201 })
      return email
    },
    async close() {
      await browser.close()
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return dashboard
}

/** Signs in through the form (no MFA) and waits for the signed-in frame. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20_000 })
}

/** A new page at `path`, signed in as `email` (the dashboard comes back to `path` after the sign-in). */
export async function openSignedIn(dashboard: Dashboard, path: string, email = ADMIN.email, options?: Parameters<Dashboard['open']>[1]) {
  const page = await dashboard.open(path, options)
  await signIn(page, email)
  return page
}

/** axe finds no serious or critical violation on the page as it is. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze()
  const grave = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(grave.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([])
}
