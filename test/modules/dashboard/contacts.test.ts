// The Contacts screen in headless Chromium against the compiled binary: contacts made through the API are
// listed, searched by a prefix (`q`) with the search kept in the URL (a reload keeps it), paged by the
// API's cursor; one opened with its account and its tickets; edited and created with the form (checked
// through the API). A Viewer reads with no write control; an agent sees only the tickets the API shows it.
// 360 px wide: usable, no horizontal scroll of the page. axe in light and dark. (Both engines.)
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
  eventually,
  scrollWidth,
  WAIT,
} from '../../helpers/dashboard.ts'

requireChromium('contacts.test.ts')

describe.skipIf(!CHROMIUM)('the Contacts screen', () => {
  let dashboard: Dashboard
  let admin: string
  const ids: Record<string, string> = {}

  const contactApi = async (id: string) => (await dashboard.api('GET', `/api/v1/contacts/${id}`, admin)).body

  async function create(path: string, body: Record<string, unknown>): Promise<string> {
    const { status, body: made } = await dashboard.api('POST', path, admin, body)
    expect({ path, status }).toEqual({ path, status: 201 })
    return made.id as string
  }

  /** Waits until the list's rows are the contacts of `expected` (names, in any order). */
  async function expectNames(page: Page, expected: string[]): Promise<void> {
    const cells = page.locator('main table tbody tr td:first-child a')
    const want = JSON.stringify([...expected].sort())
    await eventually(
      async () => JSON.stringify((await cells.allTextContents()).sort()),
      (value) => value === want,
    )
  }

  beforeAll(async () => {
    // Every test signs in through the form: more than the login's 10 a minute from one address.
    dashboard = await startDashboard({ RATE_LIMITS_ENABLED: 'false' })
    admin = await dashboard.token(ADMIN.email)
    ids.acme = await create('/api/v1/accounts', { name: 'Acme Ltd', domain: 'acme.example' })
    ids.grace = await create('/api/v1/contacts', {
      name: 'Grace Hopper',
      email: 'grace@acme.example',
      phone: '+44 20 7946 0958',
      account_id: ids.acme,
      tags: ['vip'],
      contact_type: 'customer',
    })
    ids.alan = await create('/api/v1/contacts', { name: 'Alan Turing', email: 'alan@bletchley.example', contact_type: 'lead' })
    ids.ada = await create('/api/v1/contacts', { name: 'Ada Lovelace', email: 'ada@engines.example', account_id: ids.acme })
    // Grace's tickets: one the admin holds, one nobody holds (the requester's e-mail finds her).
    const requester = { name: 'Grace Hopper', email: 'grace@acme.example' }
    const me = (await dashboard.api('GET', '/api/v1/me', admin)).body.id as string
    await create('/api/v1/tickets', { subject: 'Compiler crashes', requester, assignee_id: me })
    await create('/api/v1/tickets', { subject: 'Moth in the relay', requester })
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('the list: searched by a prefix and filtered by type, the search in the URL and kept by a reload', async () => {
    const page = await openSignedIn(dashboard, '/app/contacts')
    await expectNames(page, ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'])
    await expectAccessible(page)
    await page.getByLabel('Search', { exact: true }).fill('grac')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expectNames(page, ['Grace Hopper'])
    expect(new URL(page.url()).search).toBe('?q=grac')
    await page.reload()
    await expectNames(page, ['Grace Hopper'])
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('grac')
    // A prefix of an e-mail address finds its contact too.
    await page.getByLabel('Search', { exact: true }).fill('alan@')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expectNames(page, ['Alan Turing'])
    await page.getByRole('link', { name: 'Clear filters' }).click()
    await page.getByLabel('Type').selectOption({ label: 'Lead' })
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expectNames(page, ['Alan Turing'])
    expect(new URL(page.url()).searchParams.get('contact_type')).toBe('lead')
    await page.close()
  }, 90_000)

  test("paged by the API's cursor", async () => {
    for (let i = 1; i <= 21; i++) await create('/api/v1/contacts', { name: `Bulk ${String(i).padStart(2, '0')}`, tags: ['bulk'] })
    const page = await openSignedIn(dashboard, '/app/contacts?tag=bulk&sort=name:asc')
    const rows = page.locator('main table tbody tr')
    await eventually(
      () => rows.count(),
      (value) => value === 20,
    )
    await page.getByRole('link', { name: 'Next page' }).click()
    await expectNames(page, ['Bulk 21'])
    await page.getByRole('link', { name: 'First page' }).click()
    await eventually(
      () => rows.count(),
      (value) => value === 20,
    )
    await page.close()
  }, 90_000)

  test('one contact: its fields, its account and its tickets; edited with the form', async () => {
    const page = await openSignedIn(dashboard, '/app/contacts?q=grace')
    await page.getByRole('link', { name: 'Grace Hopper' }).click()
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor(WAIT)
    const fields = page.locator('main dl')
    expect(await fields.textContent()).toContain('grace@acme.example')
    expect(await fields.textContent()).toContain('+442079460958')
    expect(await fields.textContent()).toContain('Acme Ltd')
    const tickets = page.getByRole('table', { name: "The contact's tickets" })
    await eventually(
      async () => (await tickets.locator('tbody td:nth-child(2)').allTextContents()).sort().join(),
      (value) => value === 'Compiler crashes,Moth in the relay',
    )
    await expectAccessible(page)

    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('heading', { name: 'Edit the contact' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByLabel('Phone (with its country code, +44…)').fill('+44 20 7946 0000')
    await page.getByLabel('Tags (separated by spaces or commas)').fill('vip navy')
    await page.getByLabel('Consents to marketing').check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('heading', { name: 'Details' }).waitFor(WAIT)
    expect(await fields.textContent()).toContain('+442079460000')
    expect(await contactApi(ids.grace!)).toMatchObject({
      phone: '+442079460000',
      tags: ['vip', 'navy'],
      email: 'grace@acme.example',
      account_id: ids.acme,
      consent: { marketing: { granted: true }, email: { granted: false } },
    })

    // The account leads to the list of its contacts.
    await page.getByRole('link', { name: 'Acme Ltd' }).click()
    await expectNames(page, ['Ada Lovelace', 'Grace Hopper'])
    await page.getByText('Only the contacts of the account Acme Ltd.').waitFor(WAIT)
    await page.close()
  }, 90_000)

  test('the New contact form makes a contact and opens it; a refused field is explained', async () => {
    const page = await openSignedIn(dashboard, '/app/contacts')
    await page.getByRole('link', { name: 'New contact' }).click()
    await page.getByRole('heading', { level: 1, name: 'New contact' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByLabel('Name', { exact: true }).fill('Charles Babbage')
    await page.getByLabel('E-mail', { exact: true }).fill('grace@acme.example')
    await page.getByRole('button', { name: 'Create contact' }).click()
    // The e-mail is Grace's: the API's 409 names the field.
    await page.getByRole('alert').filter({ hasText: 'email' }).waitFor(WAIT)
    await page.getByLabel('E-mail', { exact: true }).fill('charles@engines.example')
    await page.getByLabel('Type').selectOption({ label: 'Lead' })
    await page.getByRole('button', { name: 'Create contact' }).click()
    await page.getByRole('heading', { level: 1, name: 'Charles Babbage' }).waitFor(WAIT)
    const id = new URL(page.url()).pathname.split('/').pop()!
    expect(await contactApi(id)).toMatchObject({ name: 'Charles Babbage', email: 'charles@engines.example', contact_type: 'lead' })
    // The one error the browser logs is its note of the refused e-mail's 409 (on its own time).
    await eventually(
      async () => dashboard.problems.length,
      (count) => count > 0,
    )
    expect(dashboard.problems).toEqual(['/app/contacts: Failed to load resource: the server responded with a status of 409 (Conflict)'])
    dashboard.problems.length = 0
    await page.close()
  }, 90_000)

  test('dark: the list, a contact and the form pass axe', async () => {
    const page = await openSignedIn(dashboard, '/app/contacts?q=grace', ADMIN.email, { colorScheme: 'dark' })
    await expectNames(page, ['Grace Hopper'])
    await expectAccessible(page)
    await page.getByRole('link', { name: 'Grace Hopper' }).click()
    await page.getByRole('table', { name: "The contact's tickets" }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('button', { name: 'Save changes' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.close()
  }, 90_000)

  test('a Viewer reads the list and a contact, with no write control', async () => {
    const viewer = await dashboard.user('viewer')
    const page = await openSignedIn(dashboard, '/app/contacts?q=grace', viewer)
    await expectNames(page, ['Grace Hopper'])
    expect(await page.getByRole('link', { name: 'New contact' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Grace Hopper' }).click()
    await page.getByRole('table', { name: "The contact's tickets" }).waitFor(WAIT)
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0)
    await page.goto(`${dashboard.url}/app/contacts/new`)
    await page.getByText('Your role does not allow creating contacts.').waitFor(WAIT)
    await page.close()
  }, 90_000)

  test("an agent sees a contact's tickets as the API shows them: the unassigned one, not the admin's", async () => {
    const agent = await dashboard.user('agent')
    const page = await openSignedIn(dashboard, `/app/contacts/${ids.grace}`, agent)
    const tickets = page.getByRole('table', { name: "The contact's tickets" })
    await eventually(
      async () => (await tickets.locator('tbody td:nth-child(2)').allTextContents()).join(),
      (value) => value === 'Moth in the relay',
    )
    const { body } = await dashboard.api('GET', `/api/v1/contacts/${ids.grace}/tickets`, await dashboard.token(agent))
    expect((body.tickets as { subject: string }[]).map((t) => t.subject)).toEqual(['Moth in the relay'])
    await page.close()
  }, 90_000)

  test('360 px wide: the navigation behind Menu, the list usable, no horizontal scroll of the page', async () => {
    const page = await openSignedIn(dashboard, '/app/contacts', ADMIN.email, { viewport: { width: 360, height: 740 } })
    await eventually(
      () => page.locator('main table tbody tr').count(),
      (value) => value === 20,
    )
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tickets' }).waitFor(WAIT)
    await page.getByRole('button', { name: 'Menu' }).click()
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await page.getByLabel('Search', { exact: true }).fill('grace')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expectNames(page, ['Grace Hopper'])
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await expectAccessible(page)
    await page.getByRole('link', { name: 'Grace Hopper' }).click()
    await page.getByRole('table', { name: "The contact's tickets" }).waitFor(WAIT)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await page.close()
  }, 90_000)

  test('no console error, CSP violation or outside request', () => {
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  })
})
