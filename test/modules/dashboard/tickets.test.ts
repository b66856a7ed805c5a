// The Tickets screen in headless Chromium against the compiled binary: tickets made through the API are
// listed, filtered by status and tag with the filters kept in the URL (a reload keeps them), paged by the
// API's cursor; one opened, commented on, assigned and moved through its statuses (a refused move is
// explained in the API's words), each change checked through the API; a new ticket made with the form.
// A Viewer reads everything and has no write control; a write forced after the role was lowered is the
// API's 403 in words; an agent sees only its own and unassigned tickets.
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

requireChromium('tickets.test.ts')

describe.skipIf(!CHROMIUM)('the Tickets screen', () => {
  let dashboard: Dashboard
  let admin: string
  let adminId: string
  let agentEmail: string
  let agentId: string
  const ids: Record<string, string> = {}

  const ticketApi = async (id: string) => (await dashboard.api('GET', `/api/v1/tickets/${id}`, admin)).body

  async function create(body: Record<string, unknown>, token = admin): Promise<string> {
    const { status, body: ticket } = await dashboard.api('POST', '/api/v1/tickets', token, body)
    expect(status).toBe(201)
    return ticket.id as string
  }

  /** Waits until the list's rows are the tickets of `expected` (subjects, in any order). */
  async function expectSubjects(page: Page, expected: string[]): Promise<void> {
    const cells = page.locator('main table tbody tr td:nth-child(2)')
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
    adminId = (await dashboard.api('GET', '/api/v1/me', admin)).body.id as string
    agentEmail = await dashboard.user('agent')
    const agentToken = await dashboard.token(agentEmail)
    agentId = (await dashboard.api('GET', '/api/v1/me', agentToken)).body.id as string
    ids.fire = await create({ subject: 'Printer on fire', priority: 'urgent', tags: ['printers'], status: 'open' })
    ids.toner = await create({ subject: 'Toner is low', priority: 'low', tags: ['printers'] })
    ids.vpn = await create({ subject: 'VPN drops every hour', status: 'open', assignee_id: adminId })
    ids.mail = await create({ subject: 'Mail quota', requester: { name: 'Maria Lefèvre', email: 'maria@example.com' } })
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('the list: filtered by status and by tag, the filters in the URL and kept by a reload', async () => {
    const page = await openSignedIn(dashboard, '/app/tickets')
    await expectSubjects(page, ['Mail quota', 'Printer on fire', 'Toner is low', 'VPN drops every hour'])
    await page.getByRole('status').filter({ hasText: '4 tickets match.' }).waitFor(WAIT)
    await expectAccessible(page)

    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Open' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expectSubjects(page, ['Printer on fire', 'VPN drops every hour'])
    expect(new URL(page.url()).search).toBe('?status=open')

    await page.reload()
    await expectSubjects(page, ['Printer on fire', 'VPN drops every hour'])
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('open')

    await page.getByLabel('Tag').fill('printers')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expectSubjects(page, ['Printer on fire'])
    expect(new URL(page.url()).searchParams.get('tag')).toBe('printers')
    // Back shows the list as it was before the last filter.
    await page.goBack()
    await expectSubjects(page, ['Printer on fire', 'VPN drops every hour'])

    await page.getByRole('link', { name: 'Clear filters' }).click()
    await page.getByLabel('Sort').selectOption({ label: 'Most urgent first' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await eventually(
      () => page.locator('main table tbody tr td:nth-child(2)').first().textContent(),
      (value) => value === 'Printer on fire',
    )
    expect(await page.getByRole('columnheader', { name: 'Priority' }).getAttribute('aria-sort')).toBe('descending')
    await page.close()
  }, 90_000)

  test("paged by the API's cursor: Next page, then First page", async () => {
    for (let i = 1; i <= 22; i++) await create({ subject: `Bulk ${String(i).padStart(2, '0')}`, tags: ['bulk'] })
    const page = await openSignedIn(dashboard, '/app/tickets?tag=bulk&sort=number:asc')
    const rows = page.locator('main table tbody tr')
    await eventually(
      () => rows.count(),
      (value) => value === 20,
    )
    expect(await rows.first().locator('td:nth-child(2)').textContent()).toBe('Bulk 01')
    await page.getByRole('link', { name: 'Next page' }).click()
    await eventually(
      () => rows.count(),
      (value) => value === 2,
    )
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(['Bulk 21', 'Bulk 22'])
    expect(new URL(page.url()).searchParams.get('page_token')).toBeTruthy()
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0)
    await page.getByRole('link', { name: 'First page' }).click()
    await eventually(
      () => rows.count(),
      (value) => value === 20,
    )
    await page.close()
  }, 90_000)

  test('one ticket: comment, assign, assign to me, change status; a refused move explained; all seen through the API', async () => {
    const page = await openSignedIn(dashboard, '/app/tickets?sort=number:asc')
    await page.getByRole('link', { name: 'Mail quota' }).click()
    await page.getByRole('heading', { level: 1, name: /Mail quota/ }).waitFor(WAIT)
    expect(await page.locator('main dl').textContent()).toContain('Maria Lefèvre <maria@example.com>')
    await page.getByText('No comments yet.').waitFor(WAIT)
    await expectAccessible(page)

    await page.getByLabel('Add a comment').fill('Quota raised to 50 GB.')
    await page.getByLabel('Internal note (not public)').check()
    await page.getByRole('button', { name: 'Add comment' }).click()
    await page.getByText('Internal note added.').waitFor(WAIT)
    await page.locator('.tickets-comments li', { hasText: 'Quota raised to 50 GB.' }).getByText('Internal note').waitFor(WAIT)
    const { body: comments } = await dashboard.api('GET', `/api/v1/tickets/${ids.mail}/comments`, admin)
    expect(comments.comments).toMatchObject([{ body: 'Quota raised to 50 GB.', public: false, author_id: adminId }])

    await page.getByLabel('Assignee', { exact: true }).selectOption({ label: 'agent 1' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    await page.getByText('Assignee: agent 1.').waitFor(WAIT)
    expect((await ticketApi(ids.mail!)).assignee_id).toBe(agentId)
    await page.getByRole('button', { name: 'Assign to me' }).click()
    await eventually(
      async () => (await ticketApi(ids.mail!)).assignee_id,
      (value) => value === adminId,
    )
    await eventually(
      () => page.locator('main dl').textContent(),
      (text) => !!text?.includes('(you)'),
    )

    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Solved' })
    await page.getByRole('button', { name: 'Change status' }).click()
    await page.getByText('Status: Solved.').waitFor(WAIT)
    expect((await ticketApi(ids.mail!)).status).toBe('solved')
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'New' })
    await page.getByRole('button', { name: 'Change status' }).click()
    await page.getByRole('alert').filter({ hasText: 'A solved ticket cannot become new' }).waitFor(WAIT)
    expect((await ticketApi(ids.mail!)).status).toBe('solved')
    await expectAccessible(page)
    await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'High' })
    await page.getByRole('button', { name: 'Change priority' }).click()
    await eventually(
      async () => (await ticketApi(ids.mail!)).priority,
      (value) => value === 'high',
    )
    // The refused move is the one error the browser logs (its note of the 409, on its own time).
    await eventually(
      async () => dashboard.problems.length,
      (count) => count > 0,
    )
    expect(dashboard.problems).toEqual([
      '/app/tickets?sort=number:asc: Failed to load resource: the server responded with a status of 409 (Conflict)',
    ])
    dashboard.problems.length = 0
    await page.close()
  }, 90_000)

  test('the New ticket form makes a ticket and opens it', async () => {
    const page = await openSignedIn(dashboard, '/app/tickets')
    await page.getByRole('link', { name: 'New ticket' }).click()
    await page.getByRole('heading', { level: 1, name: 'New ticket' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByLabel('Subject').fill('Badge reader broken')
    await page.getByLabel('Description').fill('The east door does not open.')
    await page.getByLabel('Priority').selectOption({ label: 'High' })
    await page.getByLabel('Type').selectOption({ label: 'Incident' })
    await page.getByLabel("Requester's name").fill('Grace Hopper')
    await page.getByLabel("Requester's e-mail").fill('grace@example.com')
    await page.getByLabel('Tags (separated by spaces or commas)').fill('Doors, east')
    await page.getByLabel('Assignee').selectOption({ label: 'Me' })
    await page.getByRole('button', { name: 'Create ticket' }).click()
    await page.getByRole('heading', { level: 1, name: /Badge reader broken/ }).waitFor(WAIT)
    const id = new URL(page.url()).pathname.split('/').pop()!
    expect(await ticketApi(id)).toMatchObject({
      subject: 'Badge reader broken',
      description: 'The east door does not open.',
      priority: 'high',
      type: 'incident',
      tags: ['doors', 'east'],
      assignee_id: adminId,
      requester: { name: 'Grace Hopper', email: 'grace@example.com' },
    })
    await page.close()
  }, 90_000)

  test('dark: the list, a ticket and the New ticket form pass axe', async () => {
    const page = await openSignedIn(dashboard, '/app/tickets?status=open', ADMIN.email, { colorScheme: 'dark' })
    await eventually(
      () => page.locator('main table tbody tr').count(),
      (value) => value === 2,
    )
    await expectAccessible(page)
    await page.getByRole('link', { name: 'Printer on fire' }).click()
    await page.getByRole('button', { name: 'Change status' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByRole('link', { name: 'All tickets' }).click()
    await page.getByRole('link', { name: 'New ticket' }).click()
    await page.getByLabel('Subject').waitFor(WAIT)
    await expectAccessible(page)
    await page.close()
  }, 90_000)

  test('a Viewer reads the list and a ticket, with no write control', async () => {
    const viewer = await dashboard.user('viewer')
    const page = await openSignedIn(dashboard, '/app/tickets?status=open', viewer)
    await expectSubjects(page, ['Printer on fire', 'VPN drops every hour'])
    expect(await page.getByRole('link', { name: 'New ticket' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Printer on fire' }).click()
    await page.getByRole('heading', { name: 'Comments' }).waitFor(WAIT)
    await page.getByText('No comments yet.').waitFor(WAIT)
    for (const control of ['Change status', 'Change priority', 'Assign', 'Assign to me', 'Add comment'])
      expect({ control, count: await page.getByRole('button', { name: control, exact: true }).count() }).toEqual({ control, count: 0 })
    expect(await page.getByLabel('Add a comment').count()).toBe(0)
    await expectAccessible(page)
    await page.goto(`${dashboard.url}/app/tickets/new`)
    await page.getByText('Your role does not allow creating tickets.').waitFor(WAIT)
    await page.close()
  }, 90_000)

  test("an agent sees only its own and the unassigned tickets; another's is not found", async () => {
    const agentToken = await dashboard.token(agentEmail)
    await create({ subject: 'Agent own ticket', assignee_id: agentId })
    const page = await openSignedIn(dashboard, '/app/tickets?status=open', agentEmail)
    // Open: "Printer on fire" (nobody's) is listed; "VPN drops every hour" (the admin's) is not.
    await expectSubjects(page, ['Printer on fire'])
    await page.getByLabel('Assignee', { exact: true }).selectOption({ label: 'Me' })
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Any' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expectSubjects(page, ['Agent own ticket'])
    const { body } = await dashboard.api('GET', `/api/v1/tickets?assignee_id=${agentId}`, agentToken)
    expect((body.tickets as { subject: string }[]).map((t) => t.subject)).toEqual(['Agent own ticket'])
    await page.goto(`${dashboard.url}/app/tickets/${ids.vpn}`)
    await page.getByRole('alert').filter({ hasText: 'No such ticket' }).waitFor(WAIT)
    // The browser's note of the 404 the API answered for the admin's ticket (it comes on its own time).
    await eventually(
      async () => dashboard.problems.length,
      (count) => count > 0,
    )
    expect(dashboard.problems).toEqual([
      '/app/tickets?status=open: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ])
    dashboard.problems.length = 0
    await page.close()
  }, 90_000)

  test("a forced write: a comment sent after the user's role became Viewer is the API's 403, shown in words", async () => {
    const email = await dashboard.user('agent')
    const page = await openSignedIn(dashboard, `/app/tickets/${ids.toner}`, email)
    await page.getByLabel('Add a comment').fill('Sent with a role the user no longer has')
    // Meanwhile an administrator makes the user a Viewer: the screen still shows the control.
    const token = await dashboard.token(email)
    const userId = (await dashboard.api('GET', '/api/v1/me', token)).body.id as string
    expect((await dashboard.api('PATCH', `/api/v1/users/${userId}`, admin, { role: 'viewer' })).status).toBe(200)
    await page.getByRole('button', { name: 'Add comment', exact: true }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'Your role does not allow this.' })
    await alert.waitFor(WAIT)
    expect(await alert.textContent()).toContain('ticket:comment')
    const { body } = await dashboard.api('GET', `/api/v1/tickets/${ids.toner}/comments`, admin)
    expect((body.comments as { body: string }[]).map((c) => c.body)).not.toContain('Sent with a role the user no longer has')
    // The browser's note of the API's 403 (it comes on its own time).
    await eventually(
      async () => dashboard.problems.length,
      (count) => count > 0,
    )
    expect(dashboard.problems).toEqual([
      `/app/tickets/${ids.toner}: Failed to load resource: the server responded with a status of 403 (Forbidden)`,
    ])
    dashboard.problems.length = 0
    await page.close()
  }, 90_000)

  test('360 px wide: the navigation behind Menu, the list usable, no horizontal scroll of the page', async () => {
    const page = await openSignedIn(dashboard, '/app/tickets', ADMIN.email, { viewport: { width: 360, height: 740 } })
    await eventually(
      () => page.locator('main table tbody tr').count(),
      (value) => value === 20,
    )
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).waitFor(WAIT)
    await page.getByRole('button', { name: 'Menu' }).click()
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Open' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await eventually(
      () => page.locator('main table tbody tr').count(),
      (value) => value === 2,
    )
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await expectAccessible(page)
    await page.getByRole('link', { name: 'Printer on fire' }).click()
    await page.getByRole('button', { name: 'Change status' }).waitFor(WAIT)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360)
    await page.close()
  }, 90_000)

  test('no console error, CSP violation or outside request', () => {
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  })
})
