// The Reports screen in headless Chromium against the compiled binary: tickets made through the API are
// counted by the reports' fold (every second here), the summary's cards show them beside the previous
// period, another time zone is applied, the summary downloads as the API's CSV, and a card and a bar open
// the records behind them, linked to the tickets; axe in light and dark; a refused read is said in words.
// (Both engines: everything goes through the API.) The reports allow 10 requests a minute per user, so
// each browser test signs in as its own user and the checks through the API use yet another.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import {
  ADMIN,
  CHROMIUM,
  type Dashboard,
  expectAccessible,
  openSignedIn,
  startDashboard,
  requireChromium,
} from '../../helpers/dashboard.ts'

requireChromium('reports.test.ts')

describe.skipIf(!CHROMIUM)('the Reports screen', () => {
  let dashboard: Dashboard
  /** A supervisor whose report requests check the screen's figures through the API. */
  let checker: string
  const tickets: string[] = []

  beforeAll(async () => {
    dashboard = await startDashboard({ REPORTS_FOLD_INTERVAL: '1' })
    const admin = await dashboard.token(ADMIN.email)
    for (const [subject, channel] of [
      ['Printer on fire', 'email'],
      ['Toner low', 'web'],
      ['Paper jam', 'email'],
    ]) {
      const { status, body } = await dashboard.api('POST', '/api/v1/tickets', admin, { subject, channel })
      expect(status).toBe(201)
      tickets.push(body.id as string)
    }
    await dashboard.api('POST', `/api/v1/tickets/${tickets[0]}/comments`, admin, { body: 'On it.', public: true })
    expect((await dashboard.api('PATCH', `/api/v1/tickets/${tickets[0]}`, admin, { status: 'solved' })).status).toBe(200)
    checker = await dashboard.token(await dashboard.user('supervisor', 'checker@dashboard.test'))
    // The fold counts them within a second or two (a report is exact before that too, from the log).
    const deadline = Date.now() + 20_000
    for (;;) {
      const { body } = await dashboard.api('GET', '/api/v1/reports/summary?metrics=tickets.created,tickets.solved&compare=none', checker)
      const values = (body.metrics as { value: number }[] | undefined)?.map((m) => m.value)
      if (JSON.stringify(values) === '[3,1]') break
      if (Date.now() > deadline) throw new Error(`the reports did not count the tickets: ${JSON.stringify(body)}`)
      await Bun.sleep(6_500)
    }
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('cards with the previous period, another zone, the CSV, and the records behind a card and a bar', async () => {
    const page = await openSignedIn(dashboard, '/app/reports')
    const created = page.getByRole('button', { name: /^Tickets created/ })
    await created.waitFor({ timeout: 20_000 })
    await page.getByText('Previous: 0').first().waitFor({ timeout: 20_000 })
    expect(await created.textContent()).toBe('Tickets created3Previous: 0▲ up 3')
    expect(await page.getByRole('button', { name: /^Tickets solved/ }).textContent()).toContain('Tickets solved1Previous: 0')
    // The change is in words; the arrow is only decoration.
    expect(await created.locator('[aria-hidden="true"]').textContent()).toBe('▲ ')
    await expectAccessible(page)

    // Another zone: the window and the buckets are read on its wall clocks.
    await page.getByLabel('Time zone').selectOption('Asia/Kolkata')
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.getByText('times in Asia/Kolkata').waitFor({ timeout: 20_000 })
    await page.getByText('Previous: 0').first().waitFor({ timeout: 20_000 })
    expect(await created.textContent()).toContain('Tickets created3')

    // The CSV is the API's own: its header, and the figure.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      page.getByRole('button', { name: 'Download the summary (CSV)' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^summary-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = readFileSync((await download.path())!, 'utf8').split('\n')
    expect(csv[0]).toBe(
      'metric,unit,value,count,mean,p50,p90,previous_value,previous_count,previous_mean,previous_p50,previous_p90,change_difference,change_ratio',
    )
    expect(csv.find((line) => line.startsWith('tickets.created,'))).toStartWith('tickets.created,count,3,,,,,0,')

    // A card opens its records: the three tickets, each linked to its page.
    await created.click()
    await page.getByRole('heading', { name: 'Records behind “Tickets created”' }).waitFor({ timeout: 20_000 })
    await page.getByText('3 records.').waitFor({ timeout: 20_000 })
    const records = page.locator('.reports-records')
    const links = await Promise.all((await records.getByRole('link').all()).map((link) => link.getAttribute('href')))
    expect(links.sort()).toEqual(tickets.map((id) => `/app/tickets/${id}`).sort())
    // The heading takes the focus, so a keyboard user starts reading there.
    expect(await page.evaluate('document.activeElement.id')).toBe('reports-records-title')
    expect(await created.getAttribute('aria-pressed')).toBe('true')
    await expectAccessible(page)
    // The API agrees: the same records behind the figure.
    const { body } = await dashboard.api('GET', '/api/v1/reports/records?metric=tickets.created', checker)
    expect(body.total_count).toBe(3)

    // A bar opens the records of its bucket: today's, in Kolkata.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
    await page.getByText('The figures as a table').click()
    const row = page.getByRole('row', { name: new RegExp(`^${today} 3`) })
    await row.waitFor({ timeout: 20_000 })
    await page.locator('rect.reports-hit').last().click()
    await page.getByRole('heading', { name: `Records behind “Tickets created”, ${today}` }).waitFor({ timeout: 20_000 })
    await page.getByText('3 records.').waitFor({ timeout: 20_000 })
    expect(await records.getByRole('link').count()).toBe(3)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Close the records' }).click()
    expect(await page.getByRole('heading', { name: /^Records behind/ }).count()).toBe(0)
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)

  test('dark, 360 px wide: the cards, the chart and the records, accessible; nothing wider than the screen', async () => {
    const email = await dashboard.user('supervisor')
    const page = await openSignedIn(dashboard, '/app/reports', email, { colorScheme: 'dark', viewport: { width: 360, height: 740 } })
    await page.getByText('Previous: 0').first().waitFor({ timeout: 20_000 })
    await page.locator('rect.reports-hit').first().waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    await page.getByRole('button', { name: /^Tickets solved/ }).click()
    await page.getByText('1 record.').waitFor({ timeout: 20_000 })
    await expectAccessible(page)
    expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(360)
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)

  test('a refused report is said in words, not a blank screen', async () => {
    const email = await dashboard.user('viewer')
    const viewer = await dashboard.token(email)
    // The viewer spends its 10 report requests of the minute through the API.
    for (let i = 0; i < 10; i++) await dashboard.api('GET', '/api/v1/reports/live', viewer)
    const page = await openSignedIn(dashboard, '/app/reports', email)
    await page.getByRole('alert').first().waitFor({ timeout: 20_000 })
    expect(await page.getByRole('alert').first().textContent()).toMatch(/^Too many requests: try again in \d+ seconds\.$/)
    expect(await page.getByRole('heading', { name: 'Reports', level: 1 }).count()).toBe(1)
    await page.close()
    // The browser notes the refused reads (429) itself: expected here, and the only problems.
    expect(dashboard.problems.filter((p) => !p.includes('status of 429'))).toEqual([])
    expect(dashboard.refused).toEqual([])
    dashboard.problems.length = 0
  }, 90_000)
})
