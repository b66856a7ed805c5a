// The API keys screen in headless Chromium against the compiled binary: a key made with a name, a preset
// expiry and some permissions; its value shown once, copied and used against the API; the dialog kept open
// until the user says the value is saved; listed with its last use; revoked, after which the API refuses
// it. A Viewer (no api_key:read) reads the refusal in words and has no create control. axe in light and
// dark on the list, the form, the show-once dialog and the confirmation. (Both engines.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import {
  ADMIN,
  CHROMIUM,
  type Dashboard,
  expectAccessible,
  openSignedIn,
  startDashboard,
  requireChromium,
} from '../../helpers/dashboard.ts'

requireChromium('api-keys.test.ts')

const DAY = 24 * 60 * 60 * 1000

describe.skipIf(!CHROMIUM)('the API keys screen', () => {
  let dashboard: Dashboard

  beforeAll(async () => {
    // Every sign-in comes from 127.0.0.1: the login limit per address (10 a minute) would refuse the later ones.
    dashboard = await startDashboard({ RATE_LIMITS_ENABLED: 'false' })
  }, 180_000)
  afterAll(() => dashboard?.close())

  /** The API as a key: GET /api/v1/me with the value in `header`. */
  const meWithKey = (key: string, header: 'x-api-key' | 'authorization') =>
    fetch(`${dashboard.url}/api/v1/me`, { headers: { [header]: header === 'authorization' ? `Bearer ${key}` : key } })

  /** Fills the form: a name, a preset, and the permissions given (none: all of the user's). */
  async function fillForm(page: Page, name: string, preset: string, permissions: string[]) {
    await page.getByRole('button', { name: 'New API key' }).click()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Expires after').selectOption({ label: preset })
    if (permissions.length === 0) return
    await page.getByLabel('Only the ones I choose').check()
    for (const permission of permissions) await page.getByLabel(permission, { exact: true }).check()
  }

  test('a key made with a name, 90 days and two permissions: shown once, copied, used, listed with its last use, revoked', async () => {
    const page = await openSignedIn(dashboard, '/app/api-keys')
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.url })
    await page.getByText('You have no API keys.').waitFor({ timeout: 20_000 })
    await expectAccessible(page)

    await fillForm(page, 'Nightly export', '90 days', ['ticket:read', 'contact:read'])
    expect(await page.getByLabel('Expires after').locator('option').allTextContents()).toEqual(['7 days', '30 days', '90 days', '1 year'])
    // A Super Admin holds *:*: the picker offers every permission of the API, one by one.
    expect(await page.getByLabel('billing:manage', { exact: true }).isVisible()).toBe(true)
    await expectAccessible(page)
    const asked = Date.now()
    await page.getByRole('button', { name: 'Create key' }).click()

    const dialog = page.getByRole('dialog', { name: 'Your new API key' })
    await dialog.waitFor({ timeout: 20_000 })
    const shown = (await dialog.locator('#api-keys-token').textContent())!
    expect(shown).toMatch(/^pat_live_\S+$/)
    await expectAccessible(page)
    await dialog.getByRole('button', { name: 'Copy' }).click()
    await dialog.getByText('Copied', { exact: true }).waitFor({ timeout: 20_000 })
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(shown)

    // The guard: Close is disabled until the box is ticked, and Escape (twice) answers why instead of closing.
    const close = dialog.getByRole('button', { name: 'Close' })
    expect(await close.isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.getByText('it will not be shown again').waitFor({ timeout: 20_000 })
    await page.keyboard.press('Escape')
    await page.waitForTimeout(500)
    expect(await dialog.isVisible()).toBe(true)
    expect(await page.evaluate("document.querySelector('dialog')?.open")).toBe(true)
    await dialog.getByLabel('I have saved this key').check()
    await close.click()
    await dialog.waitFor({ state: 'hidden', timeout: 20_000 })
    // Focus goes back where the user started, not to the top of the page.
    await page.getByRole('button', { name: 'New API key' }).and(page.locator(':focus')).waitFor({ timeout: 20_000 })

    // The value works against the API, as X-API-Key and as a bearer token, narrowed to the two permissions.
    for (const header of ['x-api-key', 'authorization'] as const) {
      const reply = await meWithKey(shown, header)
      expect(reply.status).toBe(200)
      expect(((await reply.json()) as { permissions: string[] }).permissions).toEqual(['ticket:read', 'contact:read'])
    }
    // The key as the API lists it: 90 days ahead, the two permissions; its last use is written just after the request.
    const admin = await dashboard.token(ADMIN.email)
    let listed: Record<string, unknown> | undefined
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && !listed?.last_used_at; await Bun.sleep(200))
      listed = ((await dashboard.api('GET', '/api/v1/api-keys', admin)).body.api_keys as Record<string, unknown>[])[0]
    expect(listed).toMatchObject({ name: 'Nightly export', permissions: ['ticket:read', 'contact:read'], last_used_ip: '127.0.0.1' })
    expect(Math.abs(Date.parse(String(listed!.expires_at)) - (asked + 90 * DAY))).toBeLessThan(5 * 60_000)
    expect(listed!.last_used_at).not.toBeNull()

    // The list after a reload: the key with its prefix, its permissions and its last use (not "never").
    await page.reload()
    const row = page.getByRole('row', { name: /Nightly export/ })
    await row.waitFor({ timeout: 20_000 })
    expect(await row.textContent()).toContain(String(listed!.prefix))
    expect(await row.textContent()).toContain('ticket:read, contact:read')
    const lastUsed = row.locator('td').nth(4)
    expect(await lastUsed.locator('time').getAttribute('datetime')).toBe(String(listed!.last_used_at))
    expect(await lastUsed.textContent()).toContain('from 127.0.0.1')
    expect(await page.getByText(shown).count()).toBe(0)
    await expectAccessible(page)

    // Revoking asks first; confirmed, the key leaves the list and the API refuses its value.
    await row.getByRole('button', { name: 'Revoke Nightly export' }).click()
    const confirm = page.getByRole('dialog', { name: 'Revoke Nightly export?' })
    await confirm.waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click()
    await page.getByText('You have no API keys.').waitFor({ timeout: 20_000 })
    expect((await meWithKey(shown, 'x-api-key')).status).toBe(401)
    expect((await meWithKey(shown, 'authorization')).status).toBe(401)
    await page.close()
  }, 120_000)

  test('in dark: the list, the form with every permission of an Agent, the show-once dialog and the confirmation pass axe', async () => {
    const email = await dashboard.user('agent')
    const page = await openSignedIn(dashboard, '/app/api-keys', email, { colorScheme: 'dark' })
    await page.getByText('You have no API keys.').waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await fillForm(page, 'Dark key', '1 year', ['ticket:comment'])
    // An Agent's picker holds its role's permissions only.
    expect(await page.getByLabel('ticket:comment', { exact: true }).isChecked()).toBe(true)
    expect(await page.getByLabel('ticket:delete', { exact: true }).count()).toBe(0)
    expect(await page.getByLabel('user:create', { exact: true }).count()).toBe(0)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Create key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Your new API key' })
    await dialog.waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await dialog.getByLabel('I have saved this key').check()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 20_000 })
    const row = page.getByRole('row', { name: /Dark key/ })
    await row.waitFor({ timeout: 20_000 })
    expect(await row.locator('td').nth(4).textContent()).toBe('never')
    await expectAccessible(page)
    await row.getByRole('button', { name: 'Revoke Dark key' }).click()
    await page.getByRole('dialog', { name: 'Revoke Dark key?' }).waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'Revoke Dark key?' }).waitFor({ state: 'hidden', timeout: 20_000 })
    expect(await row.isVisible()).toBe(true)
    // The year preset stays within the API's limit of one year.
    const token = await dashboard.token(email)
    const [key] = (await dashboard.api('GET', '/api/v1/api-keys', token)).body.api_keys as { expires_at: string }[]
    expect(Date.parse(key!.expires_at) - Date.now()).toBeGreaterThan(364 * DAY)
    expect(Date.parse(key!.expires_at) - Date.now()).toBeLessThanOrEqual(365 * DAY)
    await page.close()
  }, 120_000)

  for (const colorScheme of ['light', 'dark'] as const)
    test(`a Viewer opening the screen reads the API's refusal in words and has no create control (${colorScheme})`, async () => {
      const email = await dashboard.user('viewer')
      const page = await openSignedIn(dashboard, '/app/api-keys', email, { colorScheme })
      const alert = page.getByRole('alert')
      await alert.waitFor({ timeout: 20_000 })
      expect(await alert.textContent()).toContain('Your role does not allow this.')
      expect(await alert.textContent()).toContain('api_key:read')
      expect(await page.getByRole('button', { name: 'New API key' }).count()).toBe(0)
      await expectAccessible(page)
      await page.close()
      // The browser's own note of the refused request is the one error expected.
      const refused = `/app/api-keys: Failed to load resource: the server responded with a status of 403 (Forbidden)`
      expect(dashboard.problems).toEqual([refused])
      dashboard.problems.length = 0
    }, 90_000)

  test('no console error, CSP violation or outside request on any page', () => {
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  })
})
