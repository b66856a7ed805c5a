// The Webhooks screen in headless Chromium against the compiled binary: an admin registers a webhook
// to a real local HTTPS receiver through the form (http and a loopback address refused in the API's
// words until the operator allows loopback for the organization), gets its secret once in a dialog, and
// on the webhook's page sees the delivery of a ticket made through the API, opens the answer the API
// kept, retries it, sends a test event, rotates the secret, disables and enables it, recovers; the
// receiver got every request signed with the secret of the moment. A supervisor (no webhook:read) gets
// the refusal in words. axe on the list, the form, the dialog and the page, light and dark. Both engines.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { tempDirs } from '../../helpers/app.ts'
import { compiledBinary } from '../../helpers/binary.ts'
import {
  ADMIN,
  CHROMIUM,
  type Dashboard,
  expectAccessible,
  openSignedIn,
  startDashboard,
  requireChromium,
} from '../../helpers/dashboard.ts'
import { run } from '../../helpers/process.ts'
import { CA_FILE, type Receiver, startReceiver } from '../../helpers/receiver.ts'

requireChromium('webhooks.test.ts')

const WAIT = { timeout: 20_000 }
/** The receiver's answer, which the API keeps in the delivery record. */
const ANSWER = 'thanks from the test receiver'

/** Whether the request carries both signatures of `secret` over its raw body. */
function signedWith(request: Receiver['received'][number], secret: string): boolean {
  const { headers, body } = request
  const github = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
  const standard = `v1,${createHmac('sha256', secret).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64')}`
  return headers['x-service-signature'] === github && headers['webhook-signature'] === standard
}

describe.skipIf(!CHROMIUM)('the Webhooks screen', () => {
  let dashboard: Dashboard
  let receiver: Receiver
  let dataDir: string
  const dirs = tempDirs('switchboard-dashboard-webhooks-')

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 200, body: ANSWER }))
    dataDir = join(dirs(), 'data')
    // Our own DATA_DIR, so the operator's command below reaches the server's database; the receiver's
    // self-signed certificate trusted as an extra CA.
    dashboard = await startDashboard({ DATA_DIR: dataDir, NODE_EXTRA_CA_CERTS: CA_FILE })
  }, 180_000)
  afterAll(async () => {
    await dashboard?.close()
    receiver?.stop()
  })

  async function admin() {
    return dashboard.token(ADMIN.email)
  }

  /** Fills the form's URL and submits it. */
  async function submitUrl(page: Page, url: string) {
    await page.getByLabel('Receiver URL').fill(url)
    await page.getByRole('button', { name: 'Create webhook' }).click()
  }

  /** The secret dialog: copies the secret, closes only after "stored"; returns the secret. */
  async function takeSecret(page: Page, check: (page: Page) => Promise<void>) {
    const dialog = page.getByRole('dialog')
    await dialog.waitFor(WAIT)
    const secret = await dialog.getByLabel('Signing secret').inputValue()
    await check(page)
    await dialog.getByRole('button', { name: 'Copy secret' }).click()
    await dialog.getByText('Copied to the clipboard.').waitFor(WAIT)
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
    // Escape and Close do nothing until the user says the secret is stored.
    expect(await dialog.getByRole('button', { name: 'Close' }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    expect(await dialog.isVisible()).toBe(true)
    await dialog.getByLabel('I have stored the secret').check()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden', ...WAIT })
    return secret
  }

  async function grantClipboard(page: Page) {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.url })
  }

  test('register to a local HTTPS receiver, see a ticket delivered, open its answer, retry it, test, rotate, disable, enable, recover', async () => {
    const token = await admin()
    const page = await openSignedIn(dashboard, '/app/webhooks')
    await grantClipboard(page)
    await page.getByText('No webhooks yet.').waitFor(WAIT)
    await expectAccessible(page)

    await page.getByRole('link', { name: 'New webhook' }).click()
    await page.getByRole('heading', { name: 'New webhook' }).waitFor(WAIT)
    // The picker offers every type of the API's catalog; ticket.* is picked to start with.
    const types = page.getByRole('group', { name: 'Events' }).locator('.webhooks-type')
    expect(await types.count()).toBe(36)
    expect(await page.getByRole('checkbox', { name: 'All of the group (ticket.*)' }).isChecked()).toBe(true)
    expect(await page.getByRole('checkbox', { name: 'ticket.comment.added' }).isDisabled()).toBe(true)
    await page.getByRole('checkbox', { name: 'user.created' }).check()
    await page.getByText('6 of the 36 event types selected.').waitFor(WAIT)
    await expectAccessible(page)

    // The API refuses http, and a loopback address until the operator allows it: said in its words.
    await submitUrl(page, receiver.url().replace('https:', 'http:'))
    await page.getByText('The server refused this URL: it must use https.').waitFor(WAIT)
    await submitUrl(page, receiver.url())
    await page.getByText('The server refused this URL: it must not point at a loopback address.').waitFor(WAIT)
    await expectAccessible(page)
    const { body: me } = await dashboard.api('GET', '/api/v1/me', token)
    const allowed = await run([await compiledBinary(), 'org', 'webhook-cidrs', String(me.organization_id), '--set', '127.0.0.0/8'], {
      DATA_DIR: dataDir,
    })
    expect(allowed.code).toBe(0)
    await page.getByLabel('Description (optional)').fill('Helpdesk sync')
    await submitUrl(page, receiver.url())
    let secret = await takeSecret(page, async (page) => expectAccessible(page))
    // Made by the page (32 random bytes), since the form's own secret was left empty.
    expect(secret).toMatch(/^[0-9a-f]{64}$/)

    // Closing the dialog opens the webhook's page.
    await page.getByRole('heading', { name: 'Settings' }).waitFor(WAIT)
    const id = new URL(page.url()).pathname.split('/').pop()!
    expect(id).toMatch(/^whk_/)
    const { body: stored } = await dashboard.api('GET', `/api/v1/webhooks/${id}`, token)
    expect(stored).toMatchObject({ url: receiver.url(), events: ['ticket.*', 'user.created'], description: 'Helpdesk sync', enabled: true })
    expect(await page.locator('.webhooks-facts').textContent()).toContain('ticket.*, user.created')
    await page.getByText('No deliveries yet.').waitFor(WAIT)
    await expectAccessible(page)

    // A ticket made through the API: its delivery shows up in the log on its own (the page refreshes it).
    const ticket = await dashboard.api('POST', '/api/v1/tickets', token, { subject: 'Printer on fire' })
    expect(ticket.status).toBe(201)
    const first = page.getByRole('row').filter({ hasText: 'ticket.created' }).filter({ hasText: 'success' })
    await first.first().waitFor({ timeout: 40_000 })
    expect(await first.first().textContent()).toContain('200')
    const delivered = receiver.received.find((r) => JSON.parse(r.body).type === 'ticket.created')!
    expect(delivered.headers['x-service-attempt']).toBe('1')
    expect(signedWith(delivered, secret)).toBe(true)

    // Its kept answer.
    await page.getByRole('button', { name: 'Answer of attempt 1 of ticket.created' }).click()
    await page.locator('pre', { hasText: ANSWER }).waitFor(WAIT)
    expect(await page.getByRole('button', { name: 'Answer of attempt 1 of ticket.created' }).getAttribute('aria-expanded')).toBe('true')
    await expectAccessible(page)

    // Retried: a second attempt of the same event, sent now, shown in the log.
    await page.getByRole('button', { name: 'Retry attempt 1 of ticket.created' }).click()
    await page.getByText(/Attempt 2 of ticket\.created: success, answered 200/).waitFor(WAIT)
    await page.getByRole('button', { name: 'Answer of attempt 2 of ticket.created' }).waitFor(WAIT)
    const retried = receiver.received.filter((r) => r.headers['webhook-id'] === delivered.headers['webhook-id'])
    expect(retried.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2'])

    // A test event of a type the webhook does not subscribe to still goes to it.
    await page.getByLabel('Event type').selectOption('call.completed')
    await page.getByRole('button', { name: 'Send test event' }).click()
    await page.getByText(/Test call\.completed sent: success, answered 200/).waitFor(WAIT)
    const tested = receiver.received.find((r) => JSON.parse(r.body).type === 'call.completed')!
    expect(JSON.parse(tested.body).data.test).toBe(true)
    expect(signedWith(tested, secret)).toBe(true)
    await page.getByRole('button', { name: 'Answer of attempt 1 of call.completed' }).waitFor(WAIT)

    // Rotated: the new secret shown once; what is sent next is signed with it.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('button', { name: 'Rotate the secret' }).click()
    const rotated = await takeSecret(page, async () => undefined)
    expect(rotated).toMatch(/^[0-9a-f]{64}$/)
    expect(rotated).not.toBe(secret)
    secret = rotated
    await page.getByLabel('Event type').selectOption('user.created')
    await page.getByRole('button', { name: 'Send test event' }).click()
    await page.getByText(/Test user\.created sent: success/).waitFor(WAIT)
    expect(signedWith(receiver.received.find((r) => JSON.parse(r.body).type === 'user.created')!, secret)).toBe(true)

    // Disabled, then enabled again; then a recovery, which finds nothing undelivered.
    await page.getByRole('button', { name: 'Disable webhook' }).click()
    await page.getByText('Disabled: turned off').waitFor(WAIT)
    expect((await dashboard.api('GET', `/api/v1/webhooks/${id}`, token)).body).toMatchObject({ enabled: false, disabled_reason: 'manual' })
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Enable webhook' }).click()
    await page.getByRole('button', { name: 'Disable webhook' }).waitFor(WAIT)
    expect((await dashboard.api('GET', `/api/v1/webhooks/${id}`, token)).body).toMatchObject({ enabled: true, disabled_reason: null })
    await page.getByRole('button', { name: 'Recover deliveries' }).click()
    await page.getByText('0 events queued again.').waitFor(WAIT)

    // Changed in place: the description, and every event.
    await page.getByRole('button', { name: 'Edit settings' }).click()
    await page.getByLabel('Description (optional)').fill('Everything')
    await page.getByRole('checkbox', { name: 'Every event (*)' }).check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('button', { name: 'Edit settings' }).waitFor(WAIT)
    expect((await dashboard.api('GET', `/api/v1/webhooks/${id}`, token)).body).toMatchObject({ events: ['*'], description: 'Everything' })

    // The list shows it, with its state.
    await page.getByRole('link', { name: 'Back to the webhooks' }).click()
    const row = page.getByRole('row').filter({ hasText: receiver.url() })
    await row.waitFor(WAIT)
    expect(await row.textContent()).toContain('Enabled')
    await expectAccessible(page)
    await page.close()
  }, 120_000)

  test('dark: the list, the form, the secret dialog and the page pass axe; deleting asks first', async () => {
    // Loopback is allowed for the organization by the test before (the tests of this file run in order).
    const page = await openSignedIn(dashboard, '/app/webhooks/new', ADMIN.email, { colorScheme: 'dark' })
    await grantClipboard(page)
    await page.getByRole('heading', { name: 'New webhook' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByLabel('Signing secret (optional)').fill('a-secret-of-my-own-choosing')
    await submitUrl(page, receiver.url('/dark'))
    const secret = await takeSecret(page, async (page) => expectAccessible(page))
    expect(secret).toBe('a-secret-of-my-own-choosing')
    await page.getByRole('heading', { name: 'Settings' }).waitFor(WAIT)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Delete webhook' }).click()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Delete for good' }).click()
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor(WAIT)
    await page.getByRole('link', { name: 'New webhook' }).waitFor(WAIT)
    expect(await page.getByRole('row').filter({ hasText: '/dark' }).count()).toBe(0)
    await expectAccessible(page)
    await page.close()
  }, 90_000)

  test('a role without webhook:read has no link to the screen, and opening it explains the refusal', async () => {
    const email = await dashboard.user('supervisor')
    const page = await openSignedIn(dashboard, '/app/webhooks', email)
    await page.getByRole('alert').filter({ hasText: 'Your role does not allow this.' }).waitFor(WAIT)
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'New webhook' }).count()).toBe(0)
    await expectAccessible(page)
    await page.close()
    // The browser logs the requests the API refused, each explained on the page: the two URLs (400) of
    // the first test and the supervisor's list (403). Nothing else.
    const refusedBy = (status: string) => `/app/webhooks: Failed to load resource: the server responded with a status of ${status}`
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({
      problems: [refusedBy('400 (Bad Request)'), refusedBy('400 (Bad Request)'), refusedBy('403 (Forbidden)')],
      refused: [],
    })
  }, 90_000)
})
