// Reports end to end on a few hand-made tickets: the figures before the fold (folded by the report
// itself) equal the figures after it, the series, the records and the CSV say the same.
import { afterAll, expect, test } from 'bun:test'
import { foldAll } from '../../../src/modules/reports/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app, 'acme')
const MIN = 60_000
const t0 = app.clock.now()

const call = (method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...users.admin.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

const a = await json<{ id: string }>(
  await call('POST', '/api/v1/tickets', { subject: 'A', priority: 'high', channel: 'email', tags: ['x', 'y'] }),
)
app.clock.advance(10 * MIN)
expect((await call('POST', `/api/v1/tickets/${a.id}/comments`, { body: 'On it', public: true })).status).toBe(201)
app.clock.advance(40 * MIN)
expect((await call('PATCH', `/api/v1/tickets/${a.id}`, { status: 'solved' })).status).toBe(200)
await call('POST', '/api/v1/tickets', { subject: 'B', channel: 'web' })

const window = `from=${new Date(t0 - 60 * MIN).toISOString()}&to=${new Date(t0 + 120 * MIN).toISOString()}&tz=UTC`
const summary = async () =>
  json<{ metrics: { metric: string; value: unknown }[] }>(
    await call(
      'GET',
      `/api/v1/reports/summary?metrics=tickets.created,tickets.solved,tickets.first_response_time,tickets.resolution_time&${window}`,
    ),
  )

test('the summary counts the tickets, before and after the fold', async () => {
  const expected = [
    { metric: 'tickets.created', value: 2 },
    { metric: 'tickets.solved', value: 1 },
    { metric: 'tickets.first_response_time', value: { count: 1, mean: 600, p50: 600, p90: 600 } },
    { metric: 'tickets.resolution_time', value: { count: 1, mean: 3000, p50: 3000, p90: 3000 } },
  ]
  const before = await summary()
  expect(before.metrics.map(({ metric, value }) => ({ metric, value }))).toEqual(expected)
  expect(await foldAll(app.context)).toBeGreaterThan(0)
  const after = await summary()
  expect(after.metrics.map(({ metric, value }) => ({ metric, value }))).toEqual(expected)
})

test('the series by tag, the records and the CSV agree', async () => {
  const series = await json<{ series: { group: string; total: number }[] }>(
    await call('GET', `/api/v1/reports/timeseries?metric=tickets.created&granularity=hour&group_by=tag&${window}`),
  )
  expect(series.series.map((s) => [s.group, s.total])).toEqual([
    ['none', 1],
    ['x', 1],
    ['y', 1],
  ])
  const records = await json<{ total_count: number; records: { record_id: string }[] }>(
    await call('GET', `/api/v1/reports/records?metric=tickets.created&${window}`),
  )
  expect(records.total_count).toBe(2)
  expect(records.records[0]!.record_id).toBe(a.id)
  const csv = await (await call('GET', `/api/v1/reports/summary?metrics=tickets.created&format=csv&${window}`)).text()
  expect(csv.split('\n')[1]).toStartWith('tickets.created,count,2,')
})

test('live', async () => {
  const live = await json<{ tickets: { backlog: number; unassigned: number } }>(await call('GET', '/api/v1/reports/live'))
  expect(live.tickets).toMatchObject({ backlog: 1, unassigned: 1 })
})
