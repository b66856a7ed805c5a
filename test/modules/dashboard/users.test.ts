// The Users and roles screen in headless Chromium against the compiled binary: the list with the API's
// filters and its cursor, creating a user, changing a role (seen through the API and in the audit log),
// disabling and enabling; the last active Super Admin offered no control, and its demotion, tried from a
// list made stale by a change elsewhere, refused in words. Roles without user:update see no control. axe
// in light and dark on the list, the form and the confirmation, and at 360 px wide. (Both engines.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
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

requireChromium('users.test.ts')

describe.skipIf(!CHROMIUM)('the Users and roles screen', () => {
  let dashboard: Dashboard
  let admin: string
  let adminId: string

  beforeAll(async () => {
    // Every sign-in comes from 127.0.0.1: the login limit per address (10 a minute) would refuse the later ones.
    dashboard = await startDashboard({ RATE_LIMITS_ENABLED: 'false' })
    admin = await dashboard.token(ADMIN.email)
    adminId = (await dashboard.api('GET', '/api/v1/me', admin)).body.id as string
    // 26 agents: more than the screen's page of 25, so the list needs its cursor.
    for (let i = 0; i < 26; i++) {
      const email = `crew-${String(i).padStart(2, '0')}@dashboard.test`
      const { status } = await dashboard.api('POST', '/api/v1/users', admin, {
        email,
        name: `Crew ${i}`,
        password: PASSWORD,
        role: 'agent',
      })
      expect(status).toBe(201)
    }
  }, 180_000)
  afterAll(() => dashboard?.close())

  const getUser = async (id: string) => (await dashboard.api('GET', `/api/v1/users/${id}`, admin)).body

  test('list, filters and paging; create a user, change its role (API and audit), disable and enable it', async () => {
    const page = await openSignedIn(dashboard, '/app/users')
    const rows = page.locator('tbody tr')
    await page.getByText('27 users match.').waitFor({ timeout: 20_000 })
    expect(await rows.count()).toBe(25)
    await expectAccessible(page)
    // The next page through the API's cursor: the oldest user, the Super Admin signed in, is on it.
    await page.getByRole('button', { name: 'Show more users' }).click()
    await rows.nth(26).waitFor({ timeout: 20_000 })
    expect(await rows.count()).toBe(27)
    expect(await page.getByRole('button', { name: 'Show more users' }).count()).toBe(0)
    // The only active Super Admin: no role control, and why.
    const own = page.getByRole('row', { name: /Administrator \(you\)/ })
    expect(await own.textContent()).toContain('The only active Super Admin: cannot be demoted or disabled.')
    expect(await own.getByRole('combobox').count()).toBe(0)
    expect(await own.getByRole('button').count()).toBe(0)

    // Filters: the role, and the start of a name.
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Super Admin' })
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('1 user matches.').waitFor({ timeout: 20_000 })
    expect(await rows.count()).toBe(1)
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Any role' })
    await page.getByLabel('Name or e-mail starts with').fill('crew-1')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('10 users match.').waitFor({ timeout: 20_000 })
    await page.getByLabel('Name or e-mail starts with').fill('')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('27 users match.').waitFor({ timeout: 20_000 })

    // Create a user.
    await page.getByRole('button', { name: 'New user' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await page.getByLabel('Email', { exact: true }).fill('ada@dashboard.test')
    await page.getByLabel('First password').fill(PASSWORD)
    await page.locator('#users-role').selectOption({ label: 'Agent' })
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Create user' }).click()
    await page.getByText('Ada Lovelace was created as agent.').waitFor({ timeout: 20_000 })
    const found = (await dashboard.api('GET', '/api/v1/users?q=ada', admin)).body.users as { id: string; role: string }[]
    expect(found.map((u) => u.role)).toEqual(['agent'])
    const adaId = found[0]!.id

    // Change the role: the API has it, and the audit log records who changed it from what to what.
    const row = page.getByRole('row', { name: /Ada Lovelace/ })
    await row.getByLabel('Role of Ada Lovelace').selectOption({ label: 'Supervisor' })
    const patched = page.waitForResponse((r) => r.url().endsWith(`/api/v1/users/${adaId}`) && r.request().method() === 'PATCH')
    await row.getByRole('button', { name: 'Change role' }).click()
    expect((await patched).status()).toBe(200)
    await row.getByRole('button', { name: 'Change role', disabled: true }).waitFor({ timeout: 20_000 })
    expect(await getUser(adaId)).toMatchObject({ role: 'supervisor' })
    const audit = (await dashboard.api('GET', '/api/v1/audit-logs?event=user.updated', admin)).body.audit_logs as Record<string, unknown>[]
    expect(audit.find((record) => (record.target as { id: string }).id === adaId)).toMatchObject({
      actor: { type: 'user', id: adminId },
      outcome: 'success',
      details: { changed: ['role'], role: { from: 'agent', to: 'supervisor' } },
    })

    // Disable after a confirmation, then enable.
    await row.getByRole('button', { name: 'Disable Ada Lovelace' }).click()
    const confirm = page.getByRole('dialog', { name: 'Disable Ada Lovelace?' })
    await confirm.waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click()
    await row.getByRole('button', { name: 'Enable Ada Lovelace' }).waitFor({ timeout: 20_000 })
    expect(await row.textContent()).toContain('Disabled')
    expect(await getUser(adaId)).toMatchObject({ status: 'disabled' })
    expect(
      (await dashboard.api('POST', '/api/v1/auth/login', undefined, { email: 'ada@dashboard.test', password: PASSWORD })).status,
    ).not.toBe(200)
    await row.getByRole('button', { name: 'Enable Ada Lovelace' }).click()
    await row.getByRole('button', { name: 'Disable Ada Lovelace' }).waitFor({ timeout: 20_000 })
    expect(await getUser(adaId)).toMatchObject({ status: 'active' })
    await page.close()
  }, 120_000)

  test('the last active Super Admin: its demotion, from a list made stale elsewhere, is refused in words', async () => {
    const { body: other } = await dashboard.api('POST', '/api/v1/users', admin, {
      email: 'owner-two@dashboard.test',
      name: 'Owner Two',
      password: PASSWORD,
      role: 'super_admin',
    })
    const page = await openSignedIn(dashboard, '/app/users')
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Super Admin' })
    await page.getByRole('button', { name: 'Filter' }).click()
    const own = page.getByRole('row', { name: /Administrator \(you\)/ })
    // Two active Super Admins: either may be demoted, so the signed-in one has the control too.
    await own.getByLabel('Role of Administrator').waitFor({ timeout: 20_000 })
    // Meanwhile the other one is demoted through the API: the signed-in one is now the last.
    expect((await dashboard.api('PATCH', `/api/v1/users/${other.id}`, admin, { role: 'admin' })).status).toBe(200)
    await own.getByLabel('Role of Administrator').selectOption({ label: 'Admin' })
    await own.getByRole('button', { name: 'Change role' }).click()
    const alert = own.getByRole('alert')
    await alert.waitFor({ timeout: 20_000 })
    expect(await alert.textContent()).toContain('This is the last active Super Admin of the organization: it cannot be demoted or disabled')
    // The screen looks again: no control any more, and why.
    await own.getByText('The only active Super Admin: cannot be demoted or disabled.').waitFor({ timeout: 20_000 })
    expect(await own.getByRole('combobox').count()).toBe(0)
    expect(await getUser(adminId)).toMatchObject({ role: 'super_admin', status: 'active' })
    await page.close()
    // The browser's own note of the refused request is the one error expected.
    expect(dashboard.problems).toEqual(['/app/users: Failed to load resource: the server responded with a status of 409 (Conflict)'])
    dashboard.problems.length = 0
  }, 120_000)

  test('an Admin has no control over a Super Admin; a Supervisor and a Viewer have none at all', async () => {
    const adminEmail = await dashboard.user('admin')
    const page = await openSignedIn(dashboard, '/app/users', adminEmail)
    await page.getByLabel('Name or e-mail starts with').fill('admin@')
    await page.getByRole('button', { name: 'Filter' }).click()
    const owner = page.getByRole('row', { name: /^Administrator / }).filter({ hasText: ADMIN.email })
    await owner.waitFor({ timeout: 20_000 })
    expect(await owner.getByRole('combobox').count()).toBe(0)
    expect(await owner.getByRole('button').count()).toBe(0)
    // Its role picker offers only what an Admin may give.
    await page.getByLabel('Name or e-mail starts with').fill('crew-25')
    await page.getByRole('button', { name: 'Filter' }).click()
    const crew = page.getByRole('row', { name: /Crew 25/ })
    await crew.waitFor({ timeout: 20_000 })
    expect(await crew.getByRole('combobox').locator('option').allTextContents()).toEqual(['Admin', 'Supervisor', 'Agent', 'Viewer'])
    await page.close()
    for (const role of ['supervisor', 'viewer']) {
      const page = await openSignedIn(dashboard, '/app/users', await dashboard.user(role))
      await page.getByRole('row', { name: /Crew 25/ }).waitFor({ timeout: 20_000 })
      expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0)
      expect(await page.locator('tbody').getByRole('combobox').count()).toBe(0)
      expect(await page.locator('tbody').getByRole('button').count()).toBe(0)
      expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0)
      await expectAccessible(page)
      await page.close()
    }
  }, 120_000)

  test('an Admin who demotes themselves sees the screens follow at once: Webhooks leaves the navigation', async () => {
    const email = await dashboard.user('admin')
    const page = await openSignedIn(dashboard, '/app/users', email)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor({ timeout: 20_000 })
    await page.getByLabel('Name or e-mail starts with').fill(email)
    await page.getByRole('button', { name: 'Filter' }).click()
    const own = page.getByRole('row', { name: /\(you\)/ })
    await own.waitFor({ timeout: 20_000 })
    await own.getByRole('combobox').selectOption({ label: 'Supervisor' })
    await own.getByRole('button', { name: 'Change role' }).click()
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor({ state: 'detached', timeout: 20_000 })
    expect(await nav.getByRole('link', { name: 'Users and roles' }).count()).toBe(1)
    await page.close()
  }, 120_000)

  test('in dark, and at 360 px wide: the list, the form and the confirmation pass axe; nothing overflows the page', async () => {
    const page = await openSignedIn(dashboard, '/app/users', ADMIN.email, { colorScheme: 'dark', viewport: { width: 360, height: 740 } })
    await page.getByRole('row', { name: /Crew 25/ }).waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
    await page.getByRole('button', { name: 'New user' }).click()
    await page.getByLabel('First password').waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Disable Crew 25' }).click()
    const confirm = page.getByRole('dialog', { name: 'Disable Crew 25?' })
    await confirm.waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'hidden', timeout: 20_000 })
    await page.close()
  }, 120_000)

  test('no console error, CSP violation or outside request on any page', () => {
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  })
})
