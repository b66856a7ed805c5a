// Invoice numbers: assigned only on finalization, in the order of finalization, from a gap-free
// sequence per organization (INV-000001, INV-000002, …) — a deleted draft or a refused finalization
// takes none, and many finalizations at once (through the API, concurrent requests; on PostgreSQL
// several connections) take each number exactly once.
import { expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import { accountOf, expectError, type Invoice, invoicesApp, invoicesClient, setAccount } from './invoices-api.ts'

const { app, acme, globex, operator } = await invoicesApp()
const client = invoicesClient(app, operator)
const line = { description: 'Item', quantity: 1, unit_amount: 100 }
const numberOf = (i: Invoice) => i.number

test('numbers follow finalization, not creation, per organization, without gaps', async () => {
  const [a, b, c, d] = [
    await client.draft(acme, [line]),
    await client.draft(acme, [line]),
    await client.draft(acme, [line]),
    await client.draft(acme, [line]),
  ]
  expect([a, b, c, d].map(numberOf)).toEqual([null, null, null, null])
  const first = await json<Invoice>(await client.move(c!.id, 'finalize'))
  expect((await client.remove(b!.id)).status).toBe(204)
  const second = await json<Invoice>(await client.move(a!.id, 'finalize'))
  // Refused (a negative euro total cannot join a dollar credit): no number taken.
  await setAccount(app, acme.org.id, { credit_balance: 50, balance_currency: 'usd' })
  const refused = await client.draft(acme, [{ ...line, unit_amount: -100 }], { currency: 'eur' })
  await expectError(await client.move(refused.id, 'finalize'), 409, 'CONFLICT')
  await setAccount(app, acme.org.id, { credit_balance: 0 })
  const third = await json<Invoice>(await client.move(d!.id, 'finalize'))
  expect([first, second, third].map(numberOf)).toEqual(['INV-000001', 'INV-000002', 'INV-000003'])
  // Finalizing again is refused and keeps the number.
  await expectError(await client.move(first.id, 'finalize'), 409, 'INVALID_STATE_TRANSITION')
  expect((await client.get(first.id)).number).toBe('INV-000001')
  // Another organization counts on its own.
  expect((await client.open(globex)).number).toBe('INV-000001')
})

test('many finalizations at once take each number exactly once', async () => {
  const before = Number((await accountOf(app, acme.org.id))!.next_invoice_number)
  const drafts = await Promise.all(Array.from({ length: 30 }, () => client.draft(acme, [line])))
  // Each draft finalized twice at once: one wins, the other is refused.
  const responses = await Promise.all(drafts.flatMap((d) => [client.move(d.id, 'finalize'), client.move(d.id, 'finalize')]))
  const statuses = responses.map((r) => r.status)
  expect(statuses.filter((s) => s === 200)).toHaveLength(30)
  expect(statuses.filter((s) => s === 409)).toHaveLength(30)
  const numbers = await Promise.all(
    responses.filter((r) => r.status === 200).map(async (r) => Number((await json<Invoice>(r)).number!.slice(4))),
  )
  expect(numbers.toSorted((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => before + i))
  expect(Number((await accountOf(app, acme.org.id))!.next_invoice_number)).toBe(before + 30)
  // As the organization sees them: distinct numbers on the 30 invoices.
  const read = await Promise.all(drafts.map((d) => client.get(d.id, acme.users.admin.auth)))
  expect(new Set(read.map(numberOf)).size).toBe(30)
})
