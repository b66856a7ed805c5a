// The dashboard's Audit log screen in headless Chromium against the compiled binary: a role change made
// through the API found with the actor and action filters and a time range, its record expanded; paging by
// cursor; the chain verified in words; a role without audit:read told why. axe in light and dark on every
// state. (Both engines: the records and the chain come from the API.)
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

requireChromium('audit.test.ts')

/** axe on the page as it is, in light then in dark. */
async function accessibleInBothSchemes(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await expectAccessible(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** A time as a datetime-local input takes it, in the browser's own zone. */
function localInput(page: Page, ms: number): Promise<string> {
  return page.evaluate((at) => {
    const d = new Date(at)
    const two = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
  }, ms)
}

describe.skipIf(!CHROMIUM)('the Audit log screen', () => {
  let dashboard: Dashboard

  beforeAll(async () => {
    // Thirty sign-ins from one address in a few seconds fill more than a page: the login rate limit is not under test here.
    dashboard = await startDashboard({ RATE_LIMITS_ENABLED: 'false' })
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('a role change made through the API is found by actor and action, expanded, and the chain is intact', async () => {
    const admin = await dashboard.token(ADMIN.email)
    const me = (await dashboard.api('GET', '/api/v1/me', admin)).body as { id: string; name: string }
    const email = await dashboard.user('agent', 'ada.agent@dashboard.test')
    const users = (await dashboard.api('GET', '/api/v1/users?q=ada', admin)).body.users as { id: string; email: string; name: string }[]
    const ada = users.find((user) => user.email === email)!
    const changedAt = Date.now()
    const patched = await dashboard.api('PATCH', `/api/v1/users/${ada.id}`, admin, { role: 'supervisor' })
    expect(patched.status).toBe(200)
    // More than a page of records (25): sign-ins of another user.
    for (let i = 0; i < 30; i++) await dashboard.token(email)

    const page = await openSignedIn(dashboard, '/app/audit')
    await page.getByRole('heading', { name: 'Audit log' }).waitFor({ timeout: 20_000 })
    await page.getByRole('row').nth(25).waitFor({ timeout: 20_000 })
    expect(await page.getByRole('row').count()).toBe(26)
    // Newest first: the sign-in to this page leads.
    expect(await page.getByRole('row').nth(1).textContent()).toContain('login.success')
    await accessibleInBothSchemes(page)
    // The next page by its cursor, and back.
    const firstPage = await page.locator('tbody tr').first().textContent()
    await page.getByRole('button', { name: 'Older records' }).click()
    await page.getByText('Page 2').waitFor({ timeout: 20_000 })
    // A locator, not waitForFunction: a string predicate is evaluated by eval, which the page's CSP refuses.
    await page
      .locator('tbody tr')
      .first()
      .filter({ hasNotText: firstPage ?? '' })
      .waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Newer records' }).click()
    await page.getByText('Page 1').waitFor({ timeout: 20_000 })

    // The actor (by name) and the action: only the role change is left.
    await page.getByLabel('Actor').selectOption({ label: `${me.name} (${ADMIN.email})` })
    await page.getByLabel('Action').fill('user.updated')
    const filtered = page.waitForResponse((r) => r.url().includes('/api/v1/audit-logs?') && r.url().includes('event=user.updated'))
    await page.getByRole('button', { name: 'Filter' }).click()
    const request = new URL((await filtered).url())
    expect(request.searchParams.get('actor_id')).toBe(me.id)
    await page.getByRole('row').nth(2).waitFor({ state: 'detached', timeout: 20_000 })
    const row = page.getByRole('row').nth(1)
    await row.getByText('user.updated').waitFor({ timeout: 20_000 })
    expect(await row.textContent()).toContain(me.name)
    // The target user by name.
    expect(await row.textContent()).toContain(`user ${ada.name}`)
    await row.getByRole('button', { name: /^Show/ }).click()
    const details = page.locator('.audit-details')
    await details.waitFor({ timeout: 20_000 })
    expect(JSON.parse((await details.locator('pre').textContent())!)).toMatchObject({ role: { from: 'agent', to: 'supervisor' } })
    expect(await row.getByRole('button', { name: /^Hide/ }).getAttribute('aria-expanded')).toBe('true')
    await accessibleInBothSchemes(page)

    // A time range around the change keeps it; one that ends before it leaves nothing.
    await page.getByLabel('From').fill(await localInput(page, changedAt - 60_000))
    await page.getByLabel('Until').fill(await localInput(page, changedAt + 120_000))
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByRole('row').nth(1).getByText('user.updated').waitFor({ timeout: 20_000 })
    await page.getByLabel('Until').fill(await localInput(page, changedAt - 60_000))
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No record matches these filters.').waitFor({ timeout: 20_000 })
    await accessibleInBothSchemes(page)

    // The chain, recomputed by the API, put in words.
    const verified = page.waitForResponse((r) => r.url().endsWith('/api/v1/audit-logs/verify'))
    await page.getByRole('button', { name: 'Verify the chain' }).click()
    const answer = (await (await verified).json()) as { intact: boolean; records: number }
    expect(answer.intact).toBe(true)
    await page.getByText(`The chain is intact: all ${answer.records} records match their hashes`).waitFor({ timeout: 20_000 })
    expect(answer.records).toBeGreaterThan(35)
    await accessibleInBothSchemes(page)
    await page.close()
  }, 120_000)

  test('a role without audit:read is told why, in words', async () => {
    const email = await dashboard.user('supervisor')
    const page = await openSignedIn(dashboard, '/app/audit', email)
    await page.getByRole('alert').getByText('Your role does not allow this.').waitFor({ timeout: 20_000 })
    expect(await page.getByRole('button', { name: 'Verify the chain' }).count()).toBe(0)
    // Nor is it in the navigation.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).count()).toBe(0)
    await accessibleInBothSchemes(page)
    await page.close()
  }, 90_000)

  test('no console error, CSP violation or outside request', () => {
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  })
})
