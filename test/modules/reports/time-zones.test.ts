// Buckets in time zones: tickets created at chosen instants around the UTC, New York (across the DST
// change of 2026-03-08: a local day of 23 hours), Kolkata (+5:30) and Kathmandu (+5:45) day boundaries,
// read per day, hour, ISO week and month, with from/to given as dates in the zone; the organization's
// default zone when none is given. Every count by hand; before and after the fold.
import { expect } from 'bun:test'
import {
  allRecords,
  beforeAndAfterFold,
  type Org,
  play,
  pointsOf,
  reportsApp,
  type Summary,
  summaryFigures,
  type Timeseries,
  timeseriesCsvRows,
} from './helpers.ts'

const { app, orgs } = await reportsApp({
  start: '2026-02-28T12:00:00Z',
  orgs: [{ name: 'acme' }, { name: 'globex', foldsMidway: true }],
})

/** When each ticket is created (UTC), and what the zones read. */
const INSTANTS = {
  e1: '2026-02-28T20:00:00Z', // New York Feb 28 15:00; Kolkata Mar 1 01:30
  e2: '2026-03-01T00:30:00Z', // UTC Mar 1; New York Feb 28 19:30
  e3: '2026-03-07T18:10:00Z', // Kolkata Mar 7 23:40; Kathmandu Mar 7 23:55
  e4: '2026-03-07T18:20:00Z', // Kolkata Mar 7 23:50; Kathmandu Mar 8 00:05
  e5: '2026-03-07T18:40:00Z', // Kolkata Mar 8 00:10; Kathmandu Mar 8 00:25
  e6: '2026-03-08T04:30:00Z', // New York Mar 7 23:30 EST
  e7: '2026-03-08T05:30:00Z', // New York Mar 8 00:30 EST
  e8: '2026-03-08T07:30:00Z', // New York Mar 8 03:30 EDT (02:00-03:00 never happened)
  e9: '2026-03-09T03:30:00Z', // New York Mar 8 23:30 EDT; Kolkata Mar 9 09:00 (a Monday: ISO week 11)
  e10: '2026-03-09T04:30:00Z', // New York Mar 9 00:30 EDT
  e11: '2026-11-01T05:30:00Z', // New York Nov 1 01:30 EDT (the first 01:00 hour of the fall-back night)
  e12: '2026-11-01T06:30:00Z', // New York Nov 1 01:30 EST (the second)
  e13: '2026-11-02T04:30:00Z', // New York Nov 1 23:30 EST (a day of 25 hours)
} as const

await play(app, orgs, [
  {
    at: '2026-02-28T12:00:00Z',
    // The organization's default zone (reports without tz): Kolkata.
    run: (org) => org.ok('admin', 'PUT', '/api/v1/reports/settings', { time_zone: 'Asia/Kolkata', business_hours: null }),
  },
  ...Object.entries(INSTANTS).map(([name, at]) => ({
    at,
    run: async (org: Org) => {
      org.ids[name] = (await org.ok<{ id: string }>('admin', 'POST', '/api/v1/tickets', { subject: name }, 201)).id
    },
    fold: name === 'e4' || name === 'e8',
  })),
  { at: '2026-11-03T00:00:00Z', run: async () => {} },
])

const created = (org: Org, query: Record<string, string>) => org.report<Timeseries>('timeseries', { metric: 'tickets.created', ...query })
const points = (series: Timeseries) => series.series.flatMap((s) => s.points.map((p) => [p.start, p.label, p.value]))

beforeAndAfterFold(app, () => orgs, {
  'days in UTC': async (org) => {
    const series = await created(org, { from: '2026-03-07', to: '2026-03-10', tz: 'UTC' })
    expect(series).toMatchObject({ tz: 'UTC', from: '2026-03-07T00:00:00.000Z', to: '2026-03-10T00:00:00.000Z' })
    expect(points(series)).toEqual([
      ['2026-03-07T00:00:00.000Z', '2026-03-07', 3],
      ['2026-03-08T00:00:00.000Z', '2026-03-08', 3],
      ['2026-03-09T00:00:00.000Z', '2026-03-09', 2],
    ])
  },

  'days in New York across the DST change: 2026-03-08 has 23 hours': async (org) => {
    const query = { from: '2026-03-07', to: '2026-03-10', tz: 'America/New_York' }
    const series = await created(org, query)
    expect(series).toMatchObject({ from: '2026-03-07T05:00:00.000Z', to: '2026-03-10T04:00:00.000Z' })
    // Mar 7: e3, e4, e5 and e6 (23:30 EST); Mar 8 (05:00Z to 04:00Z): e7, e8, e9 (23:30 EDT); Mar 9: e10.
    expect(points(series)).toEqual([
      ['2026-03-07T05:00:00.000Z', '2026-03-07', 4],
      ['2026-03-08T05:00:00.000Z', '2026-03-08', 3],
      ['2026-03-09T04:00:00.000Z', '2026-03-09', 1],
    ])
    expect(await org.csv('timeseries', { metric: 'tickets.created', ...query })).toEqual(timeseriesCsvRows(series, false))
    const records = await allRecords(org, {
      metric: 'tickets.created',
      ...query,
      bucket: '2026-03-08T05:00:00.000Z',
      granularity: 'day',
    })
    expect(records.records.map((r) => r.record_id)).toEqual(['e7', 'e8', 'e9'].map((n) => org.ref(n)))
  },

  'hours in New York across the DST change: 01:00 EST is followed by 03:00 EDT': async (org) => {
    const series = await created(org, { from: '2026-03-08', to: '2026-03-08T06:00:00-04:00', tz: 'America/New_York', granularity: 'hour' })
    expect(points(series)).toEqual([
      ['2026-03-08T05:00:00.000Z', '2026-03-08T00:00-05:00', 1],
      ['2026-03-08T06:00:00.000Z', '2026-03-08T01:00-05:00', 0],
      ['2026-03-08T07:00:00.000Z', '2026-03-08T03:00-04:00', 1],
      ['2026-03-08T08:00:00.000Z', '2026-03-08T04:00-04:00', 0],
      ['2026-03-08T09:00:00.000Z', '2026-03-08T05:00-04:00', 0],
    ])
  },

  'New York falls back on 2026-11-01: a day of 25 hours, two 01:00 hours': async (org) => {
    const days = await created(org, { from: '2026-10-31', to: '2026-11-03', tz: 'America/New_York' })
    expect(points(days)).toEqual([
      ['2026-10-31T04:00:00.000Z', '2026-10-31', 0],
      ['2026-11-01T04:00:00.000Z', '2026-11-01', 3],
      ['2026-11-02T05:00:00.000Z', '2026-11-02', 0],
    ])
    const hours = await created(org, { from: '2026-11-01', to: '2026-11-01T03:00:00-05:00', tz: 'America/New_York', granularity: 'hour' })
    expect(points(hours)).toEqual([
      ['2026-11-01T04:00:00.000Z', '2026-11-01T00:00-04:00', 0],
      ['2026-11-01T05:00:00.000Z', '2026-11-01T01:00-04:00', 1],
      ['2026-11-01T06:00:00.000Z', '2026-11-01T01:00-05:00', 1],
      ['2026-11-01T07:00:00.000Z', '2026-11-01T02:00-05:00', 0],
    ])
  },

  'days in Kolkata (+5:30) and Kathmandu (+5:45): the quarter hours around 18:15Z and 18:30Z': async (org) => {
    const kolkata = await created(org, { from: '2026-03-07', to: '2026-03-10', tz: 'Asia/Kolkata' })
    expect(kolkata).toMatchObject({ from: '2026-03-06T18:30:00.000Z', to: '2026-03-09T18:30:00.000Z' })
    expect(points(kolkata)).toEqual([
      ['2026-03-06T18:30:00.000Z', '2026-03-07', 2],
      ['2026-03-07T18:30:00.000Z', '2026-03-08', 4],
      ['2026-03-08T18:30:00.000Z', '2026-03-09', 2],
    ])
    const kathmandu = await created(org, { from: '2026-03-07', to: '2026-03-10', tz: 'Asia/Kathmandu' })
    expect(kathmandu).toMatchObject({ from: '2026-03-06T18:15:00.000Z', to: '2026-03-09T18:15:00.000Z' })
    expect(points(kathmandu)).toEqual([
      ['2026-03-06T18:15:00.000Z', '2026-03-07', 1],
      ['2026-03-07T18:15:00.000Z', '2026-03-08', 5],
      ['2026-03-08T18:15:00.000Z', '2026-03-09', 2],
    ])
    const hours = await created(org, {
      from: '2026-03-07T23:00:00+05:45',
      to: '2026-03-08T01:00:00+05:45',
      tz: 'Asia/Kathmandu',
      granularity: 'hour',
    })
    expect(points(hours)).toEqual([
      ['2026-03-07T17:15:00.000Z', '2026-03-07T23:00+05:45', 1],
      ['2026-03-07T18:15:00.000Z', '2026-03-08T00:00+05:45', 2],
    ])
  },

  'a window given as dates in the zone': async (org) => {
    const figures = async (tz: string) => {
      const summary = await org.report<Summary>('summary', { from: '2026-03-08', to: '2026-03-09', tz, metrics: 'tickets.created' })
      return [
        summary.from,
        summary.to,
        summary.previous_from,
        summaryFigures(summary)['tickets.created']!.value,
        summaryFigures(summary)['tickets.created']!.previous,
      ]
    }
    expect(await figures('UTC')).toEqual(['2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-07T00:00:00.000Z', 3, 3])
    // The previous period is as long as the window: 23 hours before the New York day of 23 hours.
    expect(await figures('America/New_York')).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      '2026-03-07T06:00:00.000Z',
      3,
      4,
    ])
    expect(await figures('Asia/Kolkata')).toEqual([
      '2026-03-07T18:30:00.000Z',
      '2026-03-08T18:30:00.000Z',
      '2026-03-06T18:30:00.000Z',
      4,
      2,
    ])
    expect(await figures('Asia/Kathmandu')).toEqual([
      '2026-03-07T18:15:00.000Z',
      '2026-03-08T18:15:00.000Z',
      '2026-03-06T18:15:00.000Z',
      5,
      1,
    ])
  },

  'ISO weeks from Monday': async (org) => {
    const newYork = await created(org, { from: '2026-03-01', to: '2026-03-16', tz: 'America/New_York', granularity: 'week' })
    // The first week begins before from (Monday Feb 23); Mar 1 (a Sunday) is in it.
    expect(points(newYork)).toEqual([
      ['2026-02-23T05:00:00.000Z', '2026-W09', 0],
      ['2026-03-02T05:00:00.000Z', '2026-W10', 7],
      ['2026-03-09T04:00:00.000Z', '2026-W11', 1],
    ])
    const kolkata = await created(org, { from: '2026-03-02', to: '2026-03-16', tz: 'Asia/Kolkata', granularity: 'week' })
    expect(points(kolkata)).toEqual([
      ['2026-03-01T18:30:00.000Z', '2026-W10', 6],
      ['2026-03-08T18:30:00.000Z', '2026-W11', 2],
    ])
  },

  months: async (org) => {
    const months = async (tz: string) => points(await created(org, { from: '2026-02-01', to: '2026-04-01', tz, granularity: 'month' }))
    expect(await months('UTC')).toEqual([
      ['2026-02-01T00:00:00.000Z', '2026-02', 1],
      ['2026-03-01T00:00:00.000Z', '2026-03', 9],
    ])
    expect(await months('America/New_York')).toEqual([
      ['2026-02-01T05:00:00.000Z', '2026-02', 2],
      ['2026-03-01T05:00:00.000Z', '2026-03', 8],
    ])
    expect(await months('Asia/Kolkata')).toEqual([
      ['2026-01-31T18:30:00.000Z', '2026-02', 0],
      ['2026-02-28T18:30:00.000Z', '2026-03', 10],
    ])
  },

  "without tz, the organization's zone": async (org) => {
    const series = await created(org, { from: '2026-03-07', to: '2026-03-10' })
    expect(series.tz).toBe('Asia/Kolkata')
    expect(pointsOf(series.series[0]!)).toEqual([
      ['2026-03-07', 2],
      ['2026-03-08', 4],
      ['2026-03-09', 2],
    ])
  },
})
