// What the reports refuse: a bad zone, window, metric, dimension or parameter is 400 VALIDATION_FAILED
// naming the parameter, in the error shape of every route (code, message, request_id, errors[{field,
// message}]); billing metrics need billing:read; the settings check their zone and schedule.
import { describe, expect, test } from 'bun:test'
import { type ErrorBody, expectError, type Query, queryString, reportsApp, type Summary } from './helpers.ts'

const { org } = await reportsApp({ start: '2026-03-10T12:00:00Z' })

const get = (path: string, query: Query, role: 'admin' | 'supervisor' | 'agent' = 'admin') =>
  org.send(role, 'GET', `/api/v1/reports/${path}?${queryString(query)}`)

/** 400 VALIDATION_FAILED naming `field`, in the documented shape. */
async function refused(path: string, query: Query, field: string): Promise<ErrorBody> {
  const body = await expectError(await get(path, query), 400, 'VALIDATION_FAILED', field)
  expect<unknown>(body).toEqual({
    code: 'VALIDATION_FAILED',
    message: expect.any(String),
    request_id: expect.any(String),
    errors: expect.arrayContaining([{ field, message: expect.any(String) }]),
  })
  return body
}

const WINDOW = { from: '2026-03-01', to: '2026-03-08', tz: 'UTC' }
const REPORTS: [string, Query][] = [
  ['summary', { metrics: 'tickets.created' }],
  ['timeseries', { metric: 'tickets.created' }],
  ['records', { metric: 'tickets.created' }],
  ['agents', {}],
]

describe('the window', () => {
  for (const [path, base] of REPORTS) {
    test(`${path}: a zone that is no IANA zone`, async () => {
      const body = await refused(path, { ...base, ...WINDOW, tz: 'Mars/Olympus' }, 'tz')
      expect(body.errors).toHaveLength(1)
    })

    test(`${path}: from and to that are neither RFC 3339 times nor dates`, async () => {
      for (const from of ['yesterday', '2026-02-30', '2026-03-01T10:00:00', '2026-13-01', '2026-03-01T24:00:00Z'])
        await refused(path, { ...base, ...WINDOW, from }, 'from')
      for (const to of ['now', '2026-03-32', '08/03/2026']) await refused(path, { ...base, ...WINDOW, to }, 'to')
    })

    test(`${path}: from at or after to`, async () => {
      await refused(path, { ...base, ...WINDOW, from: '2026-03-08', to: '2026-03-08' }, 'from')
      await refused(path, { ...base, ...WINDOW, from: '2026-03-09', to: '2026-03-08' }, 'from')
      // The same instant written two ways.
      await refused(path, { ...base, from: '2026-03-08T05:00:00Z', to: '2026-03-08', tz: 'America/New_York' }, 'from')
    })

    test(`${path}: a window of more than 732 days`, async () => {
      await refused(path, { ...base, from: '2024-03-01', to: '2026-03-08', tz: 'UTC' }, 'from')
    })

    test(`${path}: hours other than calendar and business`, async () => {
      await refused(path, { ...base, ...WINDOW, hours: 'weekly' }, 'hours')
    })

    test(`${path}: hours=business without business hours`, async () => {
      await refused(path, { ...base, ...WINDOW, hours: 'business' }, 'hours')
    })
  }

  test('a window of exactly 732 days is taken', async () => {
    const summary = await org.report<Summary>('summary', { from: '2024-03-06', to: '2026-03-08', tz: 'UTC', metrics: 'tickets.created' })
    expect(summary.from).toBe('2024-03-06T00:00:00.000Z')
  })
})

describe('metrics and dimensions', () => {
  test('an unknown metric: metrics (summary), metric (timeseries, records)', async () => {
    await refused('summary', { ...WINDOW, metrics: 'tickets.created,tickets.nope' }, 'metrics')
    await refused('summary', { ...WINDOW, metrics: 'tickets.created,' }, 'metrics')
    await refused('timeseries', { ...WINDOW, metric: 'tickets' }, 'metric')
    await refused('records', { ...WINDOW, metric: 'calls.nope' }, 'metric')
  })

  test('more than 20 metrics', async () => {
    await refused('summary', { ...WINDOW, metrics: Array(21).fill('tickets.created').join(',') }, 'metrics')
  })

  test('group_by that is not a dimension of the metric', async () => {
    await refused('timeseries', { ...WINDOW, metric: 'tickets.created', group_by: 'queue' }, 'group_by')
    await refused('timeseries', { ...WINDOW, metric: 'calls.offered', group_by: 'tag' }, 'group_by')
    await refused('timeseries', { ...WINDOW, metric: 'agents.logged_in_time', group_by: 'status' }, 'group_by')
    await refused('records', { ...WINDOW, metric: 'tickets.created', group_by: 'queue', group: 'sales' }, 'group_by')
  })

  test('records: group and group_by go together; the bucket must be a bucket start inside the window', async () => {
    await refused('records', { ...WINDOW, metric: 'tickets.created', group: 'vip' }, 'group')
    await refused('records', { ...WINDOW, metric: 'tickets.created', group_by: 'tag' }, 'group')
    await refused('records', { ...WINDOW, metric: 'tickets.created', bucket: 'monday' }, 'bucket')
    await refused('records', { ...WINDOW, metric: 'tickets.created', bucket: '2026-04-01T00:00:00.000Z', granularity: 'day' }, 'bucket')
  })

  test('a granularity, a comparison or a format that is not one of the list', async () => {
    await refused('timeseries', { ...WINDOW, metric: 'tickets.created', granularity: 'minute' }, 'granularity')
    await refused('summary', { ...WINDOW, metrics: 'tickets.created', compare: 'last_week' }, 'compare')
    await refused('summary', { ...WINDOW, metrics: 'tickets.created', format: 'xlsx' }, 'format')
  })

  test('numbers out of their range', async () => {
    await refused('summary', { ...WINDOW, metrics: 'calls.service_level', threshold: 0 }, 'threshold')
    await refused('summary', { ...WINDOW, metrics: 'calls.service_level', threshold: 'soon' }, 'threshold')
    await refused('timeseries', { ...WINDOW, metric: 'tickets.created', group_by: 'tag', top: 51 }, 'top')
    await refused('records', { ...WINDOW, metric: 'tickets.created', page_size: 0 }, 'page_size')
  })

  test('numbers in their range are taken (query strings are text)', async () => {
    for (const [path, query] of [
      ['summary', { metrics: 'calls.service_level', threshold: 30 }],
      ['timeseries', { metric: 'tickets.created', group_by: 'tag', top: 3 }],
      ['records', { metric: 'tickets.created', page_size: 10 }],
      ['agents', { page_size: 10 }],
    ] as const) {
      const response = await get(path, { ...WINDOW, ...query })
      expect({ path, status: response.status, body: response.status === 200 ? '' : await response.text() }).toEqual({
        path,
        status: 200,
        body: '',
      })
    }
  })
})

describe('permissions', () => {
  test('billing metrics need billing:read besides report:read', async () => {
    await expectError(
      await get('summary', { ...WINDOW, metrics: 'tickets.created,billing.mrr' }, 'supervisor'),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(await get('timeseries', { ...WINDOW, metric: 'billing.revenue' }, 'agent'), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await get('summary', { ...WINDOW, metrics: 'billing.mrr' }, 'admin')).status).toBe(200)
    const listed = async (role: 'admin' | 'supervisor') =>
      (await org.report<{ metrics: { id: string; family: string }[] }>('metrics', {}, role)).metrics.filter((m) => m.family === 'billing')
        .length
    expect(await listed('admin')).toBe(8)
    expect(await listed('supervisor')).toBe(0)
  })
})

describe('the settings', () => {
  test('a zone that is no IANA zone, a schedule that is no schedule: 400 naming the field', async () => {
    const put = (body: unknown) => org.send('admin', 'PUT', '/api/v1/reports/settings', body)
    await expectError(await put({ time_zone: 'Europe/Atlantis', business_hours: null }), 400, 'VALIDATION_FAILED', 'time_zone')
    const week = { mon: [{ start: '17:00', end: '09:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }
    const body = await expectError(
      await put({ time_zone: 'UTC', business_hours: { weekly: week, holidays: [] } }),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.errors![0]!.field).toStartWith('business_hours.weekly.mon')
    await expectError(
      await put({ time_zone: 'UTC', business_hours: { weekly: { ...week, mon: [] }, holidays: ['2026-02-30'] } }),
      400,
      'VALIDATION_FAILED',
    )
    expect(await org.ok('admin', 'GET', '/api/v1/reports/settings')).toEqual({ time_zone: 'UTC', business_hours: null })
  })

  test('only organization:update changes them; every role reads them', async () => {
    const response = await org.send('supervisor', 'PUT', '/api/v1/reports/settings', { time_zone: 'UTC', business_hours: null })
    await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
    expect(await org.ok('agent', 'GET', '/api/v1/reports/settings')).toEqual({ time_zone: 'UTC', business_hours: null })
  })
})
