// Payments under concurrent requests over two instances (manual provider): one announced transfer per
// invoice (a partial unique index), an announced transfer confirmed, bounced and canceled at once (its
// row lock), a payment refunded in parts at once (its row lock).
import { describe, expect, test } from 'bun:test'
import { billingCluster, count, json, type Payment, SLOW_MS, statusesIn, TEST_ENGINE, WRITERS } from './billing-cluster.ts'

const c = await billingCluster()
const paymentsOf = async (invoiceId: string) =>
  (await c.ok<{ payments: Payment[] }>(await c.owner('GET', `/api/v1/billing/payments?invoice_id=${invoiceId}`))).payments
const eventsOf = async (paymentId: string) =>
  (
    await c.db.raw.all<{ type: string }>("SELECT type FROM events WHERE type LIKE 'payment.%' AND body LIKE ? ORDER BY id", [
      `%"id":"${paymentId}"%`,
    ])
  ).map((row) => row.type)

describe(`payments at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test(
    'one invoice paid by 16 announced transfers at once: one awaits the operator, the others 409',
    async () => {
      const invoice = await c.open(2500)
      const responses = await c.many(WRITERS, (i) =>
        c.owner('POST', `/api/v1/billing/invoices/${invoice.id}/pay`, { reference: `ACME-${i}` }),
      )
      const statuses = statusesIn(responses, [200, 409])
      expect([count(statuses, 200), count(statuses, 409)]).toEqual([1, WRITERS - 1])
      expect((await paymentsOf(invoice.id)).map((p) => [p.status, p.amount])).toEqual([['processing', 2500]])
    },
    SLOW_MS,
  )

  test(
    'an announced transfer confirmed, bounced and canceled by 18 requests at once: one moves it, one event',
    async () => {
      for (let round = 0; round < 3; round++) {
        const invoice = await c.open(3100)
        const announced = await c.ok<Payment>(
          await c.owner('POST', `/api/v1/billing/invoices/${invoice.id}/pay`, { reference: `RACE-${round}` }),
        )
        const moves = ['confirm', 'bounce', 'cancel'] as const
        const responses = await c.many(WRITERS + 2, (i) =>
          c.operator(
            'POST',
            `/api/v1/operator/payments/${announced.id}/${moves[(i + round) % 3]}`,
            moves[(i + round) % 3] === 'bounce' ? {} : undefined,
          ),
        )
        const statuses = statusesIn(responses, [200, 409])
        expect(count(statuses, 200)).toBe(1)
        const winner = moves[(statuses.indexOf(200) + round) % 3]
        const confirmed = winner === 'confirm'
        expect(await eventsOf(announced.id)).toEqual([confirmed ? 'payment.succeeded' : 'payment.failed'])
        expect((await json<Payment>(responses[statuses.indexOf(200)]!)).status).toBe(confirmed ? 'succeeded' : 'canceled')
        expect(await c.invoice(invoice.id)).toMatchObject(
          confirmed ? { status: 'paid', amount_paid: 3100 } : { status: 'open', amount_paid: 0 },
        )
      }
    },
    SLOW_MS,
  )

  test(
    'a payment refunded by 16 requests of an eighth at once: 8 refunds, never more than was paid',
    async () => {
      const invoice = await c.open(800)
      const payment = await c.ok<Payment>(
        await c.operator('POST', `/api/v1/operator/invoices/${invoice.id}/payments`, { reference: 'WIRE-R' }),
        201,
      )
      const responses = await c.many(WRITERS, () => c.operator('POST', `/api/v1/operator/payments/${payment.id}/refunds`, { amount: 100 }))
      const statuses = statusesIn(responses, [201, 400, 409])
      expect(count(statuses, 201)).toBe(8)
      const [after] = await paymentsOf(invoice.id)
      expect(after).toMatchObject({ amount: 800, amount_refunded: 800 })
      expect(after!.refunds.map((r) => r.amount)).toEqual(Array(8).fill(100))
    },
    SLOW_MS,
  )
})
