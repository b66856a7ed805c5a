// The organization's invoices: the keyset list with its filters (status, subscription, creation and
// due-date windows) and paging, bad filters 400, another organization's invoice 404 exactly like a
// missing one, who may read (billing:read: admin and super admin; others 403), and who may use the
// operator's routes (an operator token only).
import { beforeAll, expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import { expectError, type Invoice, insertSubscription, invoiceFunctions, invoicesApp, invoicesClient } from './invoices-api.ts'

const { app, acme, globex, operator } = await invoicesApp()
const client = invoicesClient(app, operator)
const fn = invoiceFunctions(app)
const admin = acme.users.admin.auth
const MINUTE = 60_000
const line = { description: 'Item', quantity: 1, unit_amount: 100 }

interface Page {
  invoices: Invoice[]
  next_page_token: string
  total_count?: number
}

const list = async (query: string, auth = admin): Promise<Page> => {
  const response = await client.send('GET', `/api/v1/billing/invoices${query}`, auth)
  expect(response.status).toBe(200)
  return json<Page>(response)
}
const ids = (page: Page) => page.invoices.map((i) => i.id)

// Made a minute apart, oldest first: a draft, two open (one sent, due in 30 days), a paid, a void, and
// two of a subscription; globex has its own.
const made: Invoice[] = []
let subscriptionId = ''
let t0 = 0
beforeAll(async () => {
  t0 = app.clock.now()
  subscriptionId = await insertSubscription(app, acme.org.id)
  const step = () => app.clock.advance(MINUTE)
  made.push(await client.draft(acme, [line]))
  step()
  made.push(await json<Invoice>(await client.move((await fn.charged(acme.org.id, 100)).id, 'finalize')))
  step()
  made.push(await client.open(acme, 200, { collection_method: 'send_invoice' }))
  step()
  const paid = await client.open(acme, 300)
  await fn.pay(paid.id, 300)
  made.push(await client.get(paid.id))
  step()
  made.push(await json<Invoice>(await client.move((await client.open(acme, 400)).id, 'void')))
  for (let i = 0; i < 2; i++) {
    step()
    const row = await fn.draft({
      organizationId: acme.org.id,
      subscriptionId,
      billingReason: 'subscription_cycle',
      collectionMethod: 'charge_automatically',
      currency: 'usd',
      lines: [{ kind: 'subscription', description: 'Starter', plan_id: 'starter', quantity: 1, unit_amount: 2900, amount: 2900 }],
      periodStart: app.clock.now(),
      periodEnd: app.clock.now() + 30 * 86_400_000,
    })
    made.push(await client.get(row.id))
  }
  await client.open(globex)
})

test('newest first, drafts included, only the organization’s own, with their lines', async () => {
  const page = await list('')
  expect(ids(page)).toEqual(made.map((i) => i.id).reverse())
  expect(page.next_page_token).toBe('')
  expect(page.invoices.find((i) => i.id === made[0]!.id)).toMatchObject({ status: 'draft', number: null, pdf_url: null })
  expect(page.invoices.at(-1)!.lines).toHaveLength(1)
  expect(page.invoices).toEqual(await Promise.all(made.map((i) => client.get(i.id, admin))).then((all) => all.reverse()))
})

test('pages of two, the total when asked, oldest first on request', async () => {
  const seen: string[] = []
  let token = ''
  let pages = 0
  do {
    const page = await list(`?page_size=2&sort=created_at:asc&include_total=true${token ? `&page_token=${token}` : ''}`)
    expect(page.total_count).toBe(made.length)
    seen.push(...ids(page))
    token = page.next_page_token
    pages++
  } while (token !== '')
  expect(seen).toEqual(made.map((i) => i.id))
  expect(pages).toBe(Math.ceil(made.length / 2))
  // A token replayed with other filters is refused.
  const first = await list('?page_size=2')
  expect(first.next_page_token).not.toBe('')
  await expectError(
    await client.send('GET', `/api/v1/billing/invoices?page_size=2&status=paid&page_token=${first.next_page_token}`, admin),
    400,
    'INVALID_PAGE_TOKEN',
  )
})

test('filters: status, subscription, creation and due-date windows', async () => {
  const [draft, charged, sent, paid, voided, cycle1, cycle2] = made as [Invoice, Invoice, Invoice, Invoice, Invoice, Invoice, Invoice]
  expect(ids(await list('?status=open'))).toEqual([sent.id, charged.id])
  expect(ids(await list('?status=draft'))).toEqual([cycle2.id, cycle1.id, draft.id])
  expect(ids(await list('?status=paid'))).toEqual([paid.id])
  expect(ids(await list('?status=void'))).toEqual([voided.id])
  expect(ids(await list('?status=uncollectible'))).toEqual([])
  expect(ids(await list(`?subscription_id=${subscriptionId}`))).toEqual([cycle2.id, cycle1.id])
  expect(ids(await list('?subscription_id=sub_nope'))).toEqual([])
  const at = (minutes: number) => encodeURIComponent(new Date(t0 + minutes * MINUTE).toISOString())
  // Exclusive bounds: after minute 1 and before minute 4 leaves minutes 2 and 3.
  expect(ids(await list(`?created_after=${at(1)}&created_before=${at(4)}`))).toEqual([paid.id, sent.id])
  // Due dates: charge_automatically ones are due at finalization, the sent ones (the manual provider's
  // default) 30 days later.
  expect(ids(await list(`?due_date_after=${at(60 * 24)}`))).toEqual([voided.id, paid.id, sent.id])
  expect(ids(await list(`?due_date_before=${at(60 * 24)}&status=open`))).toEqual([charged.id])
  // A draft has no due date: outside any due-date window.
  expect(ids(await list(`?due_date_after=${at(-60)}`))).not.toContain(draft.id)
})

test('bad filters and paging are 400', async () => {
  const bad = async (query: string, code = 'VALIDATION_FAILED') =>
    expectError(await client.send('GET', `/api/v1/billing/invoices?${query}`, admin), 400, code)
  await bad('status=pending')
  await bad('created_after=yesterday')
  await bad('due_date_before=2026-13-01T00:00:00Z')
  await bad('page_size=0')
  await bad('page_size=101')
  await bad('sort=due_date:asc')
  await bad('page_token=garbage', 'INVALID_PAGE_TOKEN')
})

test('another organization’s invoice is 404 exactly like a missing one, on every read', async () => {
  const theirs = await client.open(globex)
  for (const suffix of ['', '/pdf']) {
    const other = await expectError(await client.send('GET', `/api/v1/billing/invoices/${theirs.id}${suffix}`, admin), 404, 'NOT_FOUND')
    const missing = await expectError(await client.send('GET', `/api/v1/billing/invoices/in_missing${suffix}`, admin), 404, 'NOT_FOUND')
    expect(other.message).toBe(missing.message)
  }
  expect((await client.send('GET', `/api/v1/billing/invoices/${theirs.id}`, globex.users.admin.auth)).status).toBe(200)
})

test('billing:read reads (admin, super admin); supervisor, agent and viewer are 403; no credential 401', async () => {
  const invoice = made[1]!
  for (const path of ['', `/${invoice.id}`, `/${invoice.id}/pdf`]) {
    for (const role of ['super_admin', 'admin'] as const)
      expect((await client.send('GET', `/api/v1/billing/invoices${path}`, acme.users[role].auth)).status).toBe(200)
    for (const role of ['supervisor', 'agent', 'viewer'] as const)
      await expectError(await client.send('GET', `/api/v1/billing/invoices${path}`, acme.users[role].auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await client.send('GET', `/api/v1/billing/invoices${path}`, {}), 401, 'UNAUTHENTICATED')
    // The operator's token is no organization's credential.
    expect((await client.send('GET', `/api/v1/billing/invoices${path}`, operator)).status).toBe(401)
  }
})

test('the operator routes take an operator token only', async () => {
  const draft = await client.draft(acme, [line])
  const routes: [string, string][] = [
    ['POST', `/api/v1/operator/organizations/${acme.org.id}/invoices`],
    ['GET', `/api/v1/operator/invoices/${draft.id}`],
    ['POST', `/api/v1/operator/invoices/${draft.id}/finalize`],
    ['DELETE', `/api/v1/operator/invoices/${draft.id}`],
    ['POST', `/api/v1/operator/invoices/${draft.id}/void`],
    ['POST', `/api/v1/operator/invoices/${draft.id}/mark-uncollectible`],
  ]
  const body = { currency: 'usd', lines: [line] }
  for (const [method, path] of routes) {
    const payload = method === 'POST' && path.endsWith('/invoices') ? body : undefined
    await expectError(await client.send(method, path, {}, payload), 401, 'UNAUTHENTICATED')
    for (const role of ['super_admin', 'admin'] as const)
      expect((await client.send(method, path, acme.users[role].auth, payload)).status).toBe(401)
  }
  expect(await client.get(draft.id)).toMatchObject({ status: 'draft' })
})

test('a one-off invoice’s body is checked', async () => {
  const post = (body: unknown) => client.send('POST', `/api/v1/operator/organizations/${acme.org.id}/invoices`, operator, body)
  await expectError(await post({ currency: 'xyz', lines: [line] }), 400, 'VALIDATION_FAILED', 'currency')
  await expectError(await post({ currency: 'usd', lines: [] }), 400, 'VALIDATION_FAILED')
  await expectError(await post({ currency: 'usd', lines: [{ ...line, quantity: 0 }] }), 400, 'VALIDATION_FAILED')
  await expectError(await post({ currency: 'usd', lines: [{ ...line, unit_amount: 1.5 }] }), 400, 'VALIDATION_FAILED')
  await expectError(await post({ currency: 'usd', lines: [{ ...line, description: '  ' }] }), 400, 'VALIDATION_FAILED')
  await expectError(await post({ currency: 'usd', collection_method: 'by_pigeon', lines: [line] }), 400, 'VALIDATION_FAILED')
  // The manual provider charges nothing.
  await expectError(
    await post({ currency: 'usd', collection_method: 'charge_automatically', lines: [line] }),
    400,
    'VALIDATION_FAILED',
    'collection_method',
  )
  const made = await json<Invoice>(
    await post({ currency: 'JPY', description: ' Setup ', lines: [{ description: 'Setup', quantity: 3, unit_amount: 1200 }] }),
  )
  expect(made).toMatchObject({
    status: 'draft',
    currency: 'jpy',
    billing_reason: 'manual',
    subscription_id: null,
    description: 'Setup',
    subtotal: 3600,
    lines: [{ kind: 'manual', description: 'Setup', quantity: 3, unit_amount: 1200, amount: 3600, plan: null, price_id: null }],
  })
})
