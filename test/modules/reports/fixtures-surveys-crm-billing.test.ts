// Survey, CRM and billing metrics on a hand-made day (2026-01-05, UTC), every figure computed by hand.
// Surveys: offered by hand on tickets, answered through the public link (CSAT, NPS, CES by the time of
// the answer; the response rate of the offers of the window, answered so far). CRM: contacts created that
// still exist (one merged into another, one deleted), leads created, converted (by the time of the
// conversion), the conversion rate of the leads of the window. Billing: a subscription, its payments, a
// failed one, a refund, a change and a cancellation at period end, MRR at the end of the window.
import { expect } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { createOperatorToken } from '../../../src/modules/operators/index.ts'
import {
  allRecords,
  beforeAndAfterFold,
  change,
  csvObjects,
  type Org,
  play,
  type Records,
  reportsApp,
  type Summary,
  summaryCsvObjects,
  summaryFigures,
  type Timeseries,
  timeseriesCsvRows,
  type Value,
} from './helpers.ts'

const { app, orgs } = await reportsApp({
  start: '2026-01-04T20:00:00Z',
  orgs: [{ name: 'acme' }, { name: 'globex', foldsMidway: true }],
})
const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'reports' })
const operator = { authorization: `Bearer ${token}` }
const asOperator = async <T>(method: string, path: string, body: unknown, status = 200): Promise<T> => {
  const response = await app.request(path, {
    method,
    headers: body === undefined ? operator : { ...operator, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (response.status !== status) expect({ path, status: response.status, body: await response.text() }).toEqual({ path, status, body: '' })
  return (await response.json()) as T
}
await asOperator('PUT', '/api/v1/operator/plans/starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] })

type Person = 'agent' | 'supervisor'
const ticket = async (org: Org, name: string, assignee: Person, channel: string) => {
  org.ids[name] = (
    await org.ok<{ id: string }>('admin', 'POST', '/api/v1/tickets', { subject: name, channel, assignee_id: org.userId(assignee) }, 201)
  ).id
}
const offer = async (org: Org, ticketName: string, type: 'csat' | 'nps' | 'ces') => {
  const offered = await org.ok<{ url: string }>(
    'admin',
    'POST',
    '/api/v1/surveys',
    { survey_type: type, subject_type: 'ticket', subject_id: org.ref(ticketName) },
    201,
  )
  org.ids[`${ticketName}.${type}`] = new URL(offered.url).pathname
}
const answer = async (org: Org, ticketName: string, type: 'csat' | 'nps' | 'ces', score: number) => {
  const response = await app.request(org.ref(`${ticketName}.${type}`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ score }),
  })
  expect({ status: response.status, body: await response.text() }).toMatchObject({ status: 200 })
}
const contact = async (org: Org, name: string, body: { owner?: Person; contact_type?: string }) => {
  org.ids[name] = (
    await org.ok<{ id: string }>(
      'admin',
      'POST',
      '/api/v1/contacts',
      {
        name,
        ...(body.owner === undefined ? {} : { owner_id: org.userId(body.owner) }),
        ...(body.contact_type === undefined ? {} : { contact_type: body.contact_type }),
      },
      201,
    )
  ).id
}
const lead = async (org: Org, name: string, body: { owner?: Person; source?: string; status?: string }) => {
  org.ids[name] = (
    await org.ok<{ id: string }>(
      'admin',
      'POST',
      '/api/v1/leads',
      {
        name,
        ...(body.owner === undefined ? {} : { owner_id: org.userId(body.owner) }),
        ...(body.source === undefined ? {} : { source: body.source }),
        ...(body.status === undefined ? {} : { status: body.status }),
      },
      201,
    )
  ).id
}
const convert = (org: Org, leadName: string, contactName: string) =>
  org.ok('admin', 'POST', `/api/v1/leads/${org.ref(leadName)}/convert`, { account: null, contact: { id: org.ref(contactName) } })

await play(app, orgs, [
  // The day before: a lead (converted during the day), a contact, a CSAT offer (answered during the day).
  {
    at: '2026-01-04T20:00:00Z',
    run: async (org) => {
      await lead(org, 'L5', { owner: 'supervisor', source: 'referral', status: 'qualified' })
      await contact(org, 'P0', {})
    },
  },
  { at: '2026-01-04T21:00:00Z', run: (org) => ticket(org, 'K0', 'supervisor', 'email') },
  { at: '2026-01-04T22:00:00Z', run: (org) => offer(org, 'K0', 'csat') },
  { at: '2026-01-05T08:00:00Z', run: (org) => answer(org, 'K0', 'csat', 1), fold: true },
  {
    at: '2026-01-05T09:00:00Z',
    run: async (org) => {
      await contact(org, 'P1', { owner: 'agent', contact_type: 'customer' })
      await lead(org, 'L1', { owner: 'agent', source: 'web', status: 'qualified' })
      // The organization's subscription: 2 × 2900, its invoice open (send_invoice).
      const subscribed = await org.ok<{ latest_invoice_id: string; status: string }>(
        'super_admin',
        'POST',
        '/api/v1/billing/subscription',
        { plan: 'starter', currency: 'usd', quantity: 2 },
        201,
      )
      expect(subscribed.status).toBe('active')
      org.ids.I1 = subscribed.latest_invoice_id
      expect(await asOperator<{ total: number }>('GET', `/api/v1/operator/invoices/${org.ref('I1')}`, undefined)).toMatchObject({
        total: 5800,
      })
    },
  },
  {
    at: '2026-01-05T09:10:00Z',
    run: async (org) => {
      // A one-off invoice of 1000, whose announced transfer the operator cancels: a failed payment.
      const draft = await asOperator<{ id: string }>(
        'POST',
        `/api/v1/operator/organizations/${org.id}/invoices`,
        { currency: 'usd', lines: [{ description: 'Setup', quantity: 1, unit_amount: 1000 }] },
        201,
      )
      await asOperator('POST', `/api/v1/operator/invoices/${draft.id}/finalize`, undefined)
      org.ids.I2 = draft.id
    },
  },
  {
    at: '2026-01-05T09:20:00Z',
    run: async (org) => {
      org.ids.failed = (
        await org.ok<{ id: string }>('super_admin', 'POST', `/api/v1/billing/invoices/${org.ref('I2')}/pay`, { reference: 'LOST' })
      ).id
    },
  },
  {
    at: '2026-01-05T09:30:00Z',
    run: async (org) => {
      await contact(org, 'P2', { owner: 'supervisor', contact_type: 'lead' })
      await lead(org, 'L2', { owner: 'agent', source: 'web' })
      await asOperator('POST', `/api/v1/operator/payments/${org.ref('failed')}/cancel`, undefined)
    },
  },
  {
    at: '2026-01-05T09:45:00Z',
    run: async (org) => {
      for (const name of ['K1', 'K2', 'K3']) await ticket(org, name, 'agent', 'email')
      for (const name of ['K4', 'K5']) await ticket(org, name, 'supervisor', 'web')
    },
  },
  {
    at: '2026-01-05T10:00:00Z',
    run: async (org) => {
      await contact(org, 'P3', {})
      await lead(org, 'L3', { owner: 'supervisor', source: 'referral', status: 'qualified' })
      for (const name of ['K1', 'K2', 'K3', 'K4', 'K5']) await offer(org, name, 'csat')
      for (const name of ['K1', 'K2', 'K3', 'K4']) await offer(org, name, 'nps')
      for (const name of ['K1', 'K2', 'K3', 'K4']) await offer(org, name, 'ces')
      await convert(org, 'L1', 'P1')
      const paid = await asOperator<{ id: string }>(
        'POST',
        `/api/v1/operator/invoices/${org.ref('I1')}/payments`,
        { amount: 2000, reference: 'PART-1' },
        201,
      )
      org.ids.paid = paid.id
    },
    fold: true,
  },
  {
    at: '2026-01-05T10:30:00Z',
    run: async (org) => {
      await contact(org, 'P4', { owner: 'agent' })
      await asOperator('POST', `/api/v1/operator/invoices/${org.ref('I1')}/payments`, { reference: 'PART-2' }, 201)
    },
  },
  {
    at: '2026-01-05T11:00:00Z',
    run: async (org) => {
      await contact(org, 'P5', {})
      await lead(org, 'L4', {})
      await answer(org, 'K1', 'csat', 5)
      await asOperator('POST', `/api/v1/operator/payments/${org.ref('paid')}/refunds`, { amount: 500 }, 201)
    },
  },
  { at: '2026-01-05T11:10:00Z', run: (org) => answer(org, 'K2', 'csat', 4) },
  { at: '2026-01-05T11:20:00Z', run: (org) => answer(org, 'K3', 'csat', 2) },
  { at: '2026-01-05T11:30:00Z', run: (org) => answer(org, 'K4', 'csat', 3) },
  {
    at: '2026-01-05T12:00:00Z',
    run: async (org) => {
      for (const [name, score] of [
        ['K1', 10],
        ['K2', 9],
        ['K3', 7],
        ['K4', 3],
      ] as const)
        await answer(org, name, 'nps', score)
      await convert(org, 'L5', 'P2')
      await lead(org, 'L6', { source: 'web' })
      // The subscription goes to 3 × 2900.
      await org.ok('super_admin', 'POST', '/api/v1/billing/subscription', { quantity: 3 })
    },
    fold: true,
  },
  {
    at: '2026-01-05T12:30:00Z',
    run: async (org) => {
      for (const [name, score] of [
        ['K1', 2],
        ['K2', 5],
        ['K3', 6],
      ] as const)
        await answer(org, name, 'ces', score)
    },
  },
  {
    at: '2026-01-05T13:00:00Z',
    run: async (org) => {
      await org.ok('admin', 'DELETE', `/api/v1/leads/${org.ref('L6')}`, undefined, 204)
      await org.ok('super_admin', 'POST', '/api/v1/billing/subscription/cancel', { at_period_end: true })
    },
  },
  {
    at: '2026-01-05T15:00:00Z',
    run: (org) => org.ok('admin', 'POST', `/api/v1/contacts/${org.ref('P1')}/merge`, { other_id: org.ref('P4') }),
  },
  { at: '2026-01-05T15:30:00Z', run: (org) => org.ok('admin', 'DELETE', `/api/v1/contacts/${org.ref('P5')}`, undefined, 204) },
  // The day after: K5's CSAT answered (in the response rate of the day's offers, not in the day's CSAT), L3 converted.
  {
    at: '2026-01-06T09:00:00Z',
    run: async (org) => {
      await answer(org, 'K5', 'csat', 5)
      await convert(org, 'L3', 'P3')
    },
  },
  { at: '2026-01-06T10:00:00Z', run: async () => {} },
])

const DAY_WINDOW = { from: '2026-01-05', to: '2026-01-06', tz: 'UTC' }
type Figure = { metric: string; unit: string; duration: false; value: Value; previous: Value }
const figure = (metric: string, unit: string, value: Value, previous: Value): Figure => ({ metric, unit, duration: false, value, previous })
const expected = (figures: readonly Figure[]) =>
  Object.fromEntries(figures.map((f) => [f.metric, { value: f.value, previous: f.previous, change: change(f.value, f.previous) }]))
const ids = (records: Records) => records.records.map((r) => r.record_id)

const SURVEY_FIGURES = [
  // K0 1, K1 5, K2 4, K3 2, K4 3 answered in the window: 2 of 5 are 4 or 5.
  figure('surveys.csat', 'ratio', 0.4, null),
  // 10, 9, 7, 3: (2 - 1) / 4.
  figure('surveys.nps', 'score', 25, null),
  // (2 + 5 + 6) / 3
  figure('surveys.ces', 'score', 4.33, null),
  // 5 CSAT, 4 NPS, 4 CES offered in the window; K0's the day before.
  figure('surveys.offered', 'count', 13, 1),
  // 12 of the 13 answered so far (K4's CES never); K0's was.
  figure('surveys.response_rate', 'ratio', 0.9231, 1),
]
const LEAD_FIGURES = [
  figure('crm.leads_created', 'count', 4, 1),
  figure('crm.leads_converted', 'count', 2, 0),
  // L1 and L3 (the day after) of L1-L4; L5 of the day before.
  figure('crm.conversion_rate', 'ratio', 0.5, 1),
]
const BILLING_FIGURES = [
  figure('billing.mrr', 'minor_units', 8700, 0),
  figure('billing.subscriptions_new', 'count', 1, 0),
  // The quantity change and the cancellation at period end.
  figure('billing.subscriptions_changed', 'count', 2, 0),
  figure('billing.subscriptions_canceled', 'count', 1, 0),
  figure('billing.payments_succeeded', 'count', 2, 0),
  figure('billing.payments_failed', 'count', 1, 0),
  figure('billing.revenue', 'minor_units', 5800, 0),
  figure('billing.refunds', 'minor_units', 500, 0),
]

beforeAndAfterFold(app, () => orgs, {
  "the surveys' summary of the day": async (org) => {
    const query = { ...DAY_WINDOW, metrics: SURVEY_FIGURES.map((f) => f.metric).join(',') }
    expect(summaryFigures(await org.report<Summary>('summary', query))).toEqual(expected(SURVEY_FIGURES))
    expect(csvObjects(await org.csv('summary', query))).toEqual(summaryCsvObjects(SURVEY_FIGURES))
  },

  'surveys by agent and by channel': async (org) => {
    const query = { ...DAY_WINDOW, metric: 'surveys.csat', group_by: 'agent' }
    const byAgent = await org.report<Timeseries>('timeseries', query)
    // The agent: K1 5, K2 4, K3 2; the supervisor: K0 1, K4 3.
    expect(byAgent.series.map((s) => [s.group, s.total])).toEqual([
      [org.userId('agent'), 0.6667],
      [org.userId('supervisor'), 0],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(byAgent, false))
    const offered = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'surveys.offered', group_by: 'channel' })
    expect(offered.series.map((s) => [s.group, s.total])).toEqual([
      ['email', 9],
      ['web', 4],
    ])
    const hourly = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'surveys.nps', granularity: 'hour' })
    expect(hourly.series[0]!.points.filter((p) => p.value !== null).map((p) => [p.label, p.value])).toEqual([
      ['2026-01-05T12:00+00:00', 25],
    ])
  },

  'the records behind the survey figures': async (org) => {
    const csat = await allRecords(org, { ...DAY_WINDOW, metric: 'surveys.csat' })
    expect(csat.records.map((r) => [r.at, r.value])).toEqual([
      ['2026-01-05T08:00:00.000Z', 1],
      ['2026-01-05T11:00:00.000Z', 5],
      ['2026-01-05T11:10:00.000Z', 4],
      ['2026-01-05T11:20:00.000Z', 2],
      ['2026-01-05T11:30:00.000Z', 3],
    ])
    const offered = await allRecords(org, { ...DAY_WINDOW, metric: 'surveys.offered' })
    expect(offered.total_count).toBe(13)
    expect(offered.records.filter((r) => r.value === 1).length).toBe(12)
    const own = await allRecords(org, { ...DAY_WINDOW, metric: 'surveys.csat' }, 'agent')
    expect(own.records.map((r) => r.value)).toEqual([5, 4, 2])
  },

  'contacts created that still exist (not the merged one, not the deleted one)': async (org) => {
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: 'crm.contacts_created' })
    expect(summaryFigures(summary)).toEqual(expected([figure('crm.contacts_created', 'count', 3, 1)]))
    const records = await allRecords(org, { ...DAY_WINDOW, metric: 'crm.contacts_created' })
    expect(ids(records)).toEqual([org.ref('P1'), org.ref('P2'), org.ref('P3')])
    const byType = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'crm.contacts_created', group_by: 'contact_type' })
    expect(byType.series.map((s) => [s.group, s.total])).toEqual([
      ['customer', 1],
      ['lead', 1],
      ['visitor', 1],
    ])
  },

  "the leads' summary of the day": async (org) => {
    const query = { ...DAY_WINDOW, metrics: LEAD_FIGURES.map((f) => f.metric).join(',') }
    expect(summaryFigures(await org.report<Summary>('summary', query))).toEqual(expected(LEAD_FIGURES))
    expect(csvObjects(await org.csv('summary', query))).toEqual(summaryCsvObjects(LEAD_FIGURES))
  },

  'leads by source and by owner; their records': async (org) => {
    const bySource = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'crm.leads_created', group_by: 'source' })
    expect(bySource.series.map((s) => [s.group, s.total])).toEqual([
      ['web', 2],
      ['none', 1],
      ['referral', 1],
    ])
    const byOwner = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'crm.conversion_rate', group_by: 'owner' })
    expect(byOwner.series.map((s) => [s.group, s.total])).toEqual([
      [org.userId('supervisor'), 1],
      [org.userId('agent'), 0.5],
      ['none', 0],
    ])
    const created = await allRecords(org, { ...DAY_WINDOW, metric: 'crm.leads_created' })
    expect(created.records.map((r) => [r.record_id, r.value])).toEqual([
      [org.ref('L1'), 1],
      [org.ref('L2'), 0],
      [org.ref('L3'), 1],
      [org.ref('L4'), 0],
    ])
    const converted = await allRecords(org, { ...DAY_WINDOW, metric: 'crm.leads_converted' })
    expect(converted.records.map((r) => [r.record_id, r.at])).toEqual([
      [org.ref('L1'), '2026-01-05T10:00:00.000Z'],
      [org.ref('L5'), '2026-01-05T12:00:00.000Z'],
    ])
  },

  "billing's summary of the day": async (org) => {
    const query = { ...DAY_WINDOW, metrics: BILLING_FIGURES.map((f) => f.metric).join(',') }
    expect(summaryFigures(await org.report<Summary>('summary', query))).toEqual(expected(BILLING_FIGURES))
    expect(csvObjects(await org.csv('summary', query))).toEqual(summaryCsvObjects(BILLING_FIGURES))
    const revenue = await allRecords(org, { ...DAY_WINDOW, metric: 'billing.revenue' })
    expect(revenue.records.map((r) => [r.at, r.value])).toEqual([
      ['2026-01-05T10:00:00.000Z', 2000],
      ['2026-01-05T10:30:00.000Z', 3800],
    ])
    const byCurrency = await org.report<Timeseries>('timeseries', {
      ...DAY_WINDOW,
      metric: 'billing.revenue',
      granularity: 'hour',
      group_by: 'currency',
    })
    expect(byCurrency.series.map((s) => [s.group, s.total])).toEqual([['usd', 5800]])
    expect(byCurrency.series[0]!.points.filter((p) => p.value !== 0).map((p) => [p.label, p.value])).toEqual([
      ['2026-01-05T10:00+00:00', 5800],
    ])
  },

  'MRR at the end of each window': async (org) => {
    const mrr = async (to: string) => {
      const summary = await org.report<Summary>('summary', { from: '2026-01-05', to, tz: 'UTC', metrics: 'billing.mrr', compare: 'none' })
      return summaryFigures(summary)['billing.mrr']!.value
    }
    // Before the subscription, after it (2 × 2900), after the change (3 × 2900).
    expect([await mrr('2026-01-05T08:00:00Z'), await mrr('2026-01-05T11:00:00Z'), await mrr('2026-01-05T13:00:00Z')]).toEqual([
      0, 5800, 8700,
    ])
  },
})
