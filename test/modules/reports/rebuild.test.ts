// Rebuilding the reports: in full it changes no figure (and counts nothing twice); from a date, a changed
// business-hours schedule reaches the figures from that date on and leaves the earlier ones as they were.
import { afterAll, expect, test } from 'bun:test'
import { foldAll, rebuildReports } from '../../../src/modules/reports/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

// Monday 2026-03-02, 08:00 UTC.
const app = await makeTestApp({}, { clock: new FakeClock(Date.UTC(2026, 2, 2, 8, 0)) })
afterAll(() => app.close())
const seed = await seedOrganization(app, 'rebuild')
const HOUR = 3_600_000
const DAY = 24 * HOUR
const day1 = Date.UTC(2026, 2, 2)
const day2 = Date.UTC(2026, 2, 3)

async function call(method: string, path: string, body?: unknown) {
  const admin = await signIn(app, seed.users.admin.user)
  return app.request(path, {
    method,
    headers: { ...admin.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** A ticket created now and answered publicly two hours later (08:00 -> 10:00 UTC). */
async function ticketAnsweredInTwoHours() {
  const { id } = await json<{ id: string }>(await call('POST', '/api/v1/tickets', { subject: 'Help' }))
  app.clock.advance(2 * HOUR)
  expect((await call('POST', `/api/v1/tickets/${id}/comments`, { body: 'Done', public: true })).status).toBe(201)
}

const week = (start: string, end: string) => ({ start, end })
const schedule = (start: string) => {
  const open = [week(start, '17:00')]
  return {
    time_zone: 'UTC',
    business_hours: { weekly: { mon: open, tue: open, wed: open, thu: open, fri: open, sat: [], sun: [] }, holidays: [] },
  }
}

async function businessMean(from: number, to: number): Promise<number | null> {
  const query = `metrics=tickets.first_response_time&hours=business&compare=none&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`
  const body = await json<{ metrics: { value: { mean: number | null } }[] }>(await call('GET', `/api/v1/reports/summary?${query}`))
  return body.metrics[0]!.value.mean
}

test('a full rebuild changes nothing; a rebuild from a date applies a new schedule from then on only', async () => {
  // Open from 09:00: each ticket (08:00 -> 10:00) took one business hour.
  expect((await call('PUT', '/api/v1/reports/settings', schedule('09:00'))).status).toBe(200)
  await ticketAnsweredInTwoHours()
  app.clock.advance(day2 + 8 * HOUR - app.clock.now())
  await ticketAnsweredInTwoHours()
  await foldAll(app.context)
  expect([await businessMean(day1, day2), await businessMean(day2, day2 + DAY)]).toEqual([3600, 3600])

  await rebuildReports(app.context, seed.org.id)
  expect([await businessMean(day1, day2), await businessMean(day2, day2 + DAY)]).toEqual([3600, 3600])

  // Open from 08:00 now: the tickets took two business hours; only day 2 is recomputed.
  expect((await call('PUT', '/api/v1/reports/settings', schedule('08:00'))).status).toBe(200)
  await rebuildReports(app.context, seed.org.id, day2)
  expect([await businessMean(day1, day2), await businessMean(day2, day2 + DAY)]).toEqual([3600, 7200])
  // Reports read while a rebuild from a date has not finished count every event once too.
  expect(await foldAll(app.context)).toBe(0)
  expect([await businessMean(day1, day2), await businessMean(day2, day2 + DAY)]).toEqual([3600, 7200])

  await rebuildReports(app.context, seed.org.id)
  expect([await businessMean(day1, day2), await businessMean(day2, day2 + DAY)]).toEqual([7200, 7200])
})

test('day totals stay in the zone they were begun in until a whole rebuild, and the figures never depend on it', async () => {
  const org = await seedOrganization(app, 'rebuild-zone')
  // Signed in for each request: the fake clock outruns a session.
  const as = async (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...(await signIn(app, org.users.admin.user)).auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const dayZone = async () =>
    (await app.context.db.raw.get<{ day_zone: string }>('SELECT day_zone FROM report_progress WHERE organization_id = ?', [org.org.id]))
      ?.day_zone
  const zoneOf = (zone: string) => ({ time_zone: zone, business_hours: null })
  expect((await as('PUT', '/api/v1/reports/settings', zoneOf('Asia/Kolkata'))).status).toBe(200)
  for (let k = 0; k < 6; k++) {
    expect((await as('POST', '/api/v1/tickets', { subject: `T${k}` })).status).toBe(201)
    app.clock.advance(7 * HOUR)
  }
  const daily = async (zone: string) => {
    const from = new Date(app.clock.now() - 3 * DAY).toISOString()
    const to = new Date(app.clock.now()).toISOString()
    const body = await json<{ series: { points: { start: string; value: number }[] }[] }>(
      await as('GET', `/api/v1/reports/timeseries?metric=tickets.created&granularity=day&tz=${zone}&from=${from}&to=${to}`),
    )
    return body.series[0]!.points
  }
  const before = { kolkata: await daily('Asia/Kolkata'), newYork: await daily('America/New_York') }
  await foldAll(app.context)
  expect(await dayZone()).toBe('Asia/Kolkata')
  expect({ kolkata: await daily('Asia/Kolkata'), newYork: await daily('America/New_York') }).toEqual(before)
  // A new zone: the totals keep Kolkata's days (New York's are read from hours) until a whole rebuild.
  expect((await as('PUT', '/api/v1/reports/settings', zoneOf('America/New_York'))).status).toBe(200)
  expect((await as('POST', '/api/v1/tickets', { subject: 'later' })).status).toBe(201)
  await foldAll(app.context)
  expect(await dayZone()).toBe('Asia/Kolkata')
  const after = { kolkata: await daily('Asia/Kolkata'), newYork: await daily('America/New_York') }
  await rebuildReports(app.context, org.org.id, app.clock.now() - DAY)
  expect(await dayZone()).toBe('Asia/Kolkata')
  expect({ kolkata: await daily('Asia/Kolkata'), newYork: await daily('America/New_York') }).toEqual(after)
  await rebuildReports(app.context, org.org.id)
  expect(await dayZone()).toBe('America/New_York')
  expect({ kolkata: await daily('Asia/Kolkata'), newYork: await daily('America/New_York') }).toEqual(after)
})
