// The invoice lifecycle, stated here independently of the module's table: every move from every status,
// allowed or refused (409 INVALID_STATE_TRANSITION naming both states), through the operator's routes
// and through the functions the other billing parts call (a payment, a failed attempt); the
// status_transitions Stripe fills; a deleted draft gone.
import { describe, expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import { expectError, type Invoice, invoiceFunctions, invoicesApp, invoicesClient } from './invoices-api.ts'

const { app, acme, operator } = await invoicesApp()
const client = invoicesClient(app, operator)
const fn = invoiceFunctions(app)
const { users } = acme

const STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const
type Status = (typeof STATUSES)[number]
type Move = 'finalize' | 'delete' | 'void' | 'mark-uncollectible' | 'pay'
/** Where each move leads, and from which statuses (Stripe's invoice workflow). */
const MOVES: Record<Move, { to: string; from: Status[] }> = {
  finalize: { to: 'open', from: ['draft'] },
  delete: { to: 'deleted', from: ['draft'] },
  void: { to: 'void', from: ['open', 'uncollectible'] },
  'mark-uncollectible': { to: 'uncollectible', from: ['open'] },
  pay: { to: 'paid', from: ['open', 'uncollectible'] },
}

/** An invoice brought to `status` through allowed moves only. */
async function invoiceIn(status: Status): Promise<Invoice> {
  const draft = await client.draft(acme, [{ description: 'Consulting', quantity: 2, unit_amount: 1500 }])
  if (status === 'draft') return draft
  const open = await json<Invoice>(await client.move(draft.id, 'finalize'))
  if (status === 'open') return open
  if (status === 'paid') {
    await fn.pay(open.id, open.amount_remaining)
    return client.get(open.id, users.admin.auth)
  }
  return json<Invoice>(await client.move(open.id, status === 'void' ? 'void' : 'mark-uncollectible'))
}

async function attempt(move: Move, invoice: Invoice): Promise<Response> {
  if (move === 'delete') return client.remove(invoice.id)
  if (move === 'pay') {
    // The payments part applies a payment through applyInvoicePaymentInTx; its refusal is an AppError.
    try {
      await fn.pay(invoice.id, 100)
      return Response.json(await client.get(invoice.id, users.admin.auth))
    } catch (error) {
      const e = error as { code: string; message: string; status: number }
      return Response.json({ code: e.code, message: e.message }, { status: e.status })
    }
  }
  return client.move(invoice.id, move)
}

describe('every move from every status', () => {
  for (const from of STATUSES)
    for (const [move, rule] of Object.entries(MOVES) as [Move, (typeof MOVES)[Move]][]) {
      const allowed = rule.from.includes(from)
      test(`${from} --${move}--> ${rule.to}: ${allowed ? 'allowed' : '409'}`, async () => {
        const invoice = await invoiceIn(from)
        const response = await attempt(move, invoice)
        if (!allowed) {
          const body = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
          expect(body.message).toContain(from)
          expect(body.message).toContain(rule.to)
          expect((await client.get(invoice.id, users.admin.auth)).status).toBe(from)
          return
        }
        if (move === 'delete') {
          expect(response.status).toBe(204)
          await expectError(await client.send('GET', `/api/v1/billing/invoices/${invoice.id}`, users.admin.auth), 404, 'NOT_FOUND')
          await expectError(await client.send('GET', `/api/v1/operator/invoices/${invoice.id}`, operator), 404, 'NOT_FOUND')
          return
        }
        expect(response.status).toBe(200)
        const after = await json<Invoice>(response)
        // A payment of 100 on 3000 leaves it open; the rest makes it paid.
        if (move === 'pay') {
          expect(after).toMatchObject({ status: from, amount_paid: 100, amount_remaining: 2900 })
          await fn.pay(invoice.id, 2900)
          expect((await client.get(invoice.id, users.admin.auth)).status).toBe('paid')
        } else expect(after.status).toBe(rule.to)
      })
    }
})

test('a failed payment attempt is recorded only on an open or uncollectible invoice', async () => {
  for (const status of STATUSES) {
    const invoice = await invoiceIn(status)
    const outcome = await fn.fail(invoice.id).then(
      (r) => r.invoice.attempt_count,
      (e: { code: string }) => e.code,
    )
    expect({ status, outcome }).toEqual({
      status,
      outcome: status === 'open' || status === 'uncollectible' ? 1 : 'INVALID_STATE_TRANSITION',
    })
  }
})

test('status_transitions are filled as Stripe fills them', async () => {
  const draft = await invoiceIn('draft')
  expect(draft.status_transitions).toEqual({ finalized_at: null, paid_at: null, voided_at: null, marked_uncollectible_at: null })
  expect(draft).toMatchObject({ number: null, pdf_url: null, due_date: null })

  const t0 = app.clock.now()
  const open = await json<Invoice>(await client.move(draft.id, 'finalize'))
  expect(open.status_transitions.finalized_at).toBe(new Date(t0).toISOString())
  expect(open.pdf_url).toBe(`/api/v1/billing/invoices/${open.id}/pdf`)

  app.clock.advance(3_600_000)
  const marked = await json<Invoice>(await client.move(open.id, 'mark-uncollectible'))
  expect(marked.status_transitions.marked_uncollectible_at).toBe(new Date(t0 + 3_600_000).toISOString())
  expect(marked.next_payment_attempt).toBeNull()

  app.clock.advance(3_600_000)
  await fn.pay(open.id, open.amount_remaining)
  const paid = await client.get(open.id)
  expect(paid.status_transitions).toEqual({
    finalized_at: new Date(t0).toISOString(),
    paid_at: new Date(t0 + 7_200_000).toISOString(),
    voided_at: null,
    marked_uncollectible_at: new Date(t0 + 3_600_000).toISOString(),
  })
  expect(paid).toMatchObject({ amount_paid: 3000, amount_remaining: 0, next_payment_attempt: null })

  const voided = await json<Invoice>(await client.move((await invoiceIn('open')).id, 'void'))
  expect(voided.status_transitions.voided_at).toBe(new Date(app.clock.now()).toISOString())
  expect(voided.next_payment_attempt).toBeNull()
})

test('the operator routes answer 404 for an unknown invoice, and a one-off invoice for an unknown organization', async () => {
  for (const move of ['finalize', 'void', 'mark-uncollectible'] as const)
    await expectError(await client.move('in_nope', move), 404, 'NOT_FOUND')
  await expectError(await client.remove('in_nope'), 404, 'NOT_FOUND')
  await expectError(
    await client.send('POST', '/api/v1/operator/organizations/org_nope/invoices', operator, {
      currency: 'usd',
      lines: [{ description: 'x', quantity: 1, unit_amount: 1 }],
    }),
    404,
    'NOT_FOUND',
  )
})
