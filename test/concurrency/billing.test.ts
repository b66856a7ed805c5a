// Billing's read-modify-writes under concurrent requests over two instances (src/db/README.md): an
// invoice finalized, paid or voided by many requests at once (its row lock), the credit balance added to
// and taken from at once (the billing account's row lock), the settings' and a plan's audited changes
// (their rows' locks) and an organization's price replaced at once (a keyed lock). Payments, subscriptions
// and Stripe have files of their own (billing-*.test.ts).
import { describe, expect, test } from 'bun:test'
import { billingCluster, count, type Invoice, json, SLOW_MS, statusesIn, TEST_ENGINE, WRITERS } from './billing-cluster.ts'

const c = await billingCluster()
const finalize = (id: string) => c.operator('POST', `/api/v1/operator/invoices/${id}/finalize`)
const transfer = (id: string, amount: number, i: number) =>
  c.operator('POST', `/api/v1/operator/invoices/${id}/payments`, { amount, reference: `wire ${i}` })
const number = (n: number) => `INV-${String(n).padStart(6, '0')}`
/** An audit record's details: a change's before and after values, or the price a new one replaced. */
type Audit = { before: Record<string, number>; after: Record<string, number>; replaced?: string | null }
const audits = async (event: string, organizationId: string | null) =>
  (
    await c.db.raw.all<{ details: string }>(
      'SELECT details FROM audit_logs WHERE event = ? AND coalesce(organization_id, ?) = ? ORDER BY seq',
      [event, '', organizationId ?? ''],
    )
  ).map((row) => JSON.parse(row.details) as Audit)

describe(`billing at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test(
    'each of 16 drafts finalized twice at once: once each (the other 409), numbers INV-000001 to 16 without a gap',
    async () => {
      const drafts = await Promise.all(Array.from({ length: WRITERS }, () => c.draft([100])))
      const statuses = statusesIn(await c.many(2 * WRITERS, (i) => finalize(drafts[i % WRITERS]!.id)), [200, 409])
      expect([count(statuses, 200), count(statuses, 409)]).toEqual([WRITERS, WRITERS])
      const numbers = await Promise.all(drafts.map(async (d) => (await c.invoice(d.id)).number))
      expect(numbers.toSorted()).toEqual(Array.from({ length: WRITERS }, (_, i) => number(i + 1)))
      expect((await c.open(100)).number).toBe(number(WRITERS + 1))
    },
    SLOW_MS,
  )

  test(
    '16 transfers of an eighth of one invoice at once: 8 land, the invoice paid exactly, never past its total',
    async () => {
      const invoice = await c.open(800)
      const statuses = statusesIn(await c.many(WRITERS, (i) => transfer(invoice.id, 100, i)), [201, 400, 409])
      expect(count(statuses, 201)).toBe(8)
      expect(await c.invoice(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 800, amount_remaining: 0 })
      const payments = await c.ok<{ payments: { status: string }[] }>(
        await c.owner('GET', `/api/v1/billing/payments?invoice_id=${invoice.id}`),
      )
      expect(payments.payments.map((p) => p.status)).toEqual(Array(8).fill('succeeded'))
    },
    SLOW_MS,
  )

  test(
    'a void among 15 transfers of the whole invoice: voided with no payment, or paid by exactly one',
    async () => {
      for (const at of [0, 7, 15]) {
        const invoice = await c.open(500)
        const responses = await c.many(WRITERS, (i) =>
          i === at ? c.operator('POST', `/api/v1/operator/invoices/${invoice.id}/void`) : transfer(invoice.id, 500, i),
        )
        const voided = statusesIn([responses[at]!], [200, 409])[0] === 200
        const paid = count(statusesIn(responses.toSpliced(at, 1), [201, 409]), 201)
        expect(paid).toBe(voided ? 0 : 1)
        expect(await c.invoice(invoice.id)).toMatchObject(
          voided ? { status: 'void', amount_paid: 0 } : { status: 'paid', amount_paid: 500, amount_remaining: 0 },
        )
      }
    },
    SLOW_MS,
  )

  test(
    'credit given by 16 finalizations at once adds up; 16 invoices finalized at once take it once',
    async () => {
      const credits = await Promise.all(Array.from({ length: WRITERS }, () => c.draft([-100])))
      statusesIn(await c.many(WRITERS, (i) => finalize(credits[i]!.id)), [200])
      expect(await c.creditBalance()).toBe(WRITERS * 100)
      const charges = await Promise.all(Array.from({ length: WRITERS }, () => c.draft([150])))
      const finalized = await c.many(WRITERS, (i) => finalize(charges[i]!.id))
      statusesIn(finalized, [200])
      const invoices = await Promise.all(finalized.map((r) => json<Invoice>(r)))
      expect(invoices.reduce((sum, i) => sum + i.applied_balance, 0)).toBe(WRITERS * 100)
      for (const i of invoices) expect(i.amount_due).toBe(150 - i.applied_balance)
      expect(await c.creditBalance()).toBe(0)
    },
    SLOW_MS,
  )

  test(
    'billing settings changed by 16 requests at once: each audit record starts where the one before ended',
    async () => {
      const path = `/api/v1/operator/organizations/${c.orgId}/billing`
      statusesIn(await c.many(WRITERS, (i) => c.operator('PATCH', path, { days_until_due: i + 1 })), [200])
      const records = await audits('organization.billing_settings_updated', c.orgId)
      expect(records).toHaveLength(WRITERS)
      let last = 30
      for (const { before, after } of records) {
        expect(before.days_until_due).toBe(last)
        last = after.days_until_due!
      }
      expect((await c.ok<{ days_until_due: number }>(await c.operator('GET', path))).days_until_due).toBe(last)
    },
    SLOW_MS,
  )

  test(
    "a plan's rates and price changed by 16 requests at once: audited one after the other, one active price",
    async () => {
      const responses = await c.many(WRITERS, (i) =>
        c.operator('PUT', '/api/v1/operator/plans/starter', {
          rate_limit_per_minute: 500 + i,
          prices: [{ currency: 'usd', interval: 'month', unit_amount: 1000 + i }],
        }),
      )
      statusesIn(responses, [200])
      const records = await audits('plan.updated', null)
      expect(records).toHaveLength(WRITERS)
      let last = 300
      for (const { before, after } of records) {
        expect(before.per_minute).toBe(last)
        last = after.per_minute!
      }
      const { plans } = await c.ok<{ plans: { id: string; prices: { currency: string; interval: string }[] }[] }>(
        await c.operator('GET', '/api/v1/operator/plans'),
      )
      expect(plans.find((p) => p.id === 'starter')!.prices.filter((p) => p.currency === 'usd' && p.interval === 'month')).toHaveLength(1)
    },
    SLOW_MS,
  )

  test(
    "an organization's own price set by 16 requests at once: each replaces the one before, one stays active",
    async () => {
      const path = `/api/v1/operator/organizations/${c.orgId}/prices`
      statusesIn(
        await c.many(WRITERS, (i) => c.operator('POST', path, { currency: 'usd', interval: 'year', unit_amount: 5000 + i })),
        [201],
      )
      const replaced = (await audits('plan_price.created', c.orgId)).map((record) => record.replaced ?? null)
      expect(replaced).toHaveLength(WRITERS)
      expect(replaced.filter((id) => id === null)).toHaveLength(1)
      expect(new Set(replaced).size).toBe(WRITERS)
      const offered = await c.ok<{ plans: { id: string; prices: { organization_id: string | null }[] }[] }>(
        await c.owner('GET', '/api/v1/billing/plans'),
      )
      const enterprise = offered.plans.find((p) => p.id === 'enterprise')!
      expect(enterprise.prices.filter((p) => p.organization_id === c.orgId)).toHaveLength(1)
    },
    SLOW_MS,
  )
})
