// The Live screen: its event-stream parser on its own (chunks cut anywhere), then in headless Chromium
// against the compiled binary: calls waiting, sessions queued and agents by status change without a reload
// when a call, a session and an agent's login are made through the API; a stream that ends is followed
// again with Last-Event-ID; the connection's state is said in words; axe in light and dark.
// (Both engines: everything goes through the API.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SseParser } from '../../../dashboard/src/pages/live/sse.ts'
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

describe('the Live screen’s text/event-stream parser', () => {
  test('events, comments, ids carried over, retry, multi-line data', () => {
    const parser = new SseParser()
    const text = 'retry: 2000\n: connected\n\nid: 42\nevent: call.started\ndata: {"a":1}\n\n: ping\n\ndata: one\ndata:two\n\n'
    expect(parser.push(text)).toEqual([
      { event: 'call.started', data: '{"a":1}', id: '42' },
      { event: 'message', data: 'one\ntwo', id: '42' },
    ])
    expect({ retry: parser.retry, lastEventId: parser.lastEventId }).toEqual({ retry: 2000, lastEventId: '42' })
  })

  test('chunks cut anywhere, CR LF split between them, CR alone: the same events', () => {
    const text = 'id: 7\r\nevent: agent.logged_in\r\ndata: {"x":"y"}\r\n\r\nid: 8\revent: ticket.created\rdata: z\r\r'
    const expected = [
      { event: 'agent.logged_in', data: '{"x":"y"}', id: '7' },
      { event: 'ticket.created', data: 'z', id: '8' },
    ]
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser()
      expect([...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))]).toEqual(expected)
    }
    const parser = new SseParser()
    expect([...text].flatMap((c) => parser.push(c))).toEqual(expected)
  })

  test('an event without data is not dispatched; a field without a colon is a name with an empty value', () => {
    const parser = new SseParser()
    expect(parser.push('event: nothing\n\ndata\n\nretry: soon\n\n')).toEqual([{ event: 'message', data: '', id: undefined }])
    expect(parser.retry).toBeUndefined()
  })
})

requireChromium('live.test.ts')

describe.skipIf(!CHROMIUM)('the Live screen in headless Chromium', () => {
  let dashboard: Dashboard
  let admin: string

  beforeAll(async () => {
    dashboard = await startDashboard()
    admin = await dashboard.token(ADMIN.email)
  }, 180_000)
  afterAll(() => dashboard?.close())

  const exactly = (text: string) => new RegExp(`^${text}$`)
  /** The number a figure of the page shows. */
  const figure = (page: Page, label: string) =>
    page
      .locator('.live-figure')
      .filter({ has: page.locator('dt', { hasText: exactly(label) }) })
      .locator('.live-number')
  /** Waits until the figure shows `value`. */
  const waitFor = (page: Page, label: string, value: string) =>
    figure(page, label)
      .filter({ hasText: exactly(value) })
      .waitFor({ timeout: 20_000 })
  const connected = (page: Page) =>
    page
      .getByRole('status')
      .filter({ hasText: /^Live updates: connected/ })
      .waitFor({ timeout: 20_000 })

  test('a call, a queued session and an agent logging in change the figures without a reload', async () => {
    const page = await openSignedIn(dashboard, '/app/live')
    await connected(page)
    await waitFor(page, 'Calls waiting', '0')
    expect(await figure(page, 'Sessions queued').textContent()).toBe('0')
    expect(await page.getByText('No agent profiles yet.').count()).toBe(1)
    await expectAccessible(page)
    // A mark on the window: still there at the end, so no reload happened.
    await page.evaluate('window.liveMark = 1')

    // A call is waiting while it is queued (or ringing): created through the API, queued by default.
    const call = await dashboard.api('POST', '/api/v1/calls', admin, { direction: 'inbound', from: '+14155550123', to: '+14155550100' })
    expect({ status: call.status, state: call.body.status }).toEqual({ status: 201, state: 'queued' })
    await waitFor(page, 'Calls waiting', '1')
    expect(await page.getByText(/^longest wait \d/).count()).toBeGreaterThan(0)

    // A session without an assignee is queued; an agent that logs in is available.
    const contact = await dashboard.api('POST', '/api/v1/contacts', admin, { name: 'Grace Customer' })
    const session = await dashboard.api('POST', '/api/v1/engagements', admin, { contact_id: contact.body.id, channel: 'chat' })
    expect({ status: session.status, state: session.body.status }).toEqual({ status: 201, state: 'queued' })
    const agent = await dashboard.token(await dashboard.user('agent'))
    expect((await dashboard.api('POST', '/api/v1/agents/me/login', agent)).status).toBe(200)
    await waitFor(page, 'Sessions queued', '1')
    await waitFor(page, 'Available', '1')
    await expectAccessible(page)

    // The API says the same.
    const { body } = await dashboard.api('GET', '/api/v1/reports/live', admin)
    expect({ calls: (body.calls as { waiting: number }).waiting, sessions: (body.sessions as { queued: number }).queued }).toEqual({
      calls: 1,
      sessions: 1,
    })
    expect(await page.evaluate('window.liveMark')).toBe(1)
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)

  test('dark: a stream that ends is followed again with Last-Event-ID, and new calls still show', async () => {
    const email = await dashboard.user('supervisor')
    const page = await dashboard.open('/app/live', { colorScheme: 'dark' })
    // The first stream ends at once after one event (as when a proxy cuts it); the next ones reach the server.
    const asked: (string | null)[] = []
    await page.route('**/api/v1/events/stream?*', async (route) => {
      asked.push(route.request().headers()['last-event-id'] ?? null)
      if (asked.length > 1) return route.continue()
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: 'retry: 200\n\nid: 1\nevent: user.created\ndata: {}\n\n',
      })
    })
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Live', level: 1 }).waitFor({ timeout: 20_000 })
    await figure(page, 'Calls waiting').waitFor({ timeout: 20_000 })
    await connected(page)
    expect(asked.slice(0, 2)).toEqual([null, '1'])
    const before = Number(await figure(page, 'Calls waiting').textContent())
    await expectAccessible(page)
    const call = await dashboard.api('POST', '/api/v1/calls', admin, { direction: 'inbound', from: '+14155550124', to: '+14155550100' })
    expect(call.status).toBe(201)
    await waitFor(page, 'Calls waiting', String(before + 1))
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 90_000)
})
