// `bun test/bench/zoned-time.ts`: ns per call of the zoned-time and business-hours helpers, printed, never asserted.
import { businessMs, checkSchedule } from '../../src/lib/business-hours.ts'
import { bucketStart, localLabel, QUARTER_HOUR_MS, zoneOffsetMs } from '../../src/lib/zoned-time.ts'

// Cold: the zone's offsets not yet cached; warm: the same calls again. 100,000 is what a report may ask in one go.
const CALLS = 100_000

/** ns per call of `run(i)` over CALLS instants 15 minutes apart (about 2.9 years). */
function measure(run: (instant: number) => unknown, from: number): number {
  const started = performance.now()
  for (let i = 0; i < CALLS; i++) run(from + i * QUARTER_HOUR_MS)
  return ((performance.now() - started) * 1e6) / CALLS
}

export function benchZonedTime() {
  const rows: Array<{ what: string; zone: string; cold: number; warm: number }> = []
  const cases: Array<[string, string, (zone: string) => (instant: number) => unknown]> = [
    ['zoneOffsetMs', 'America/New_York', (zone) => (t) => zoneOffsetMs(zone, t)],
    ['bucketStart hour', 'Australia/Lord_Howe', (zone) => (t) => bucketStart(zone, t, 'hour')],
    ['bucketStart day', 'America/Santiago', (zone) => (t) => bucketStart(zone, t, 'day')],
    ['bucketStart week', 'Europe/London', (zone) => (t) => bucketStart(zone, t, 'week')],
    ['bucketStart month', 'Asia/Kathmandu', (zone) => (t) => bucketStart(zone, t, 'month')],
    ['localLabel hour', 'Pacific/Chatham', (zone) => (t) => localLabel(zone, t, 'hour')],
  ]
  // Compile the code paths first, on zones not measured, so "cold" means cold caches, not a cold JIT.
  for (const [, , make] of cases) measure(make('America/Chicago'), Date.UTC(2020, 0, 1))
  for (const [what, zone, make] of cases) {
    const run = make(zone)
    const from = Date.UTC(2024, 0, 1)
    rows.push({ what, zone, cold: measure(run, from), warm: measure(run, from) })
  }
  const checked = checkSchedule({
    zone: 'America/New_York',
    weekly: { mon: [{ start: '09:00', end: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
    holidays: ['2026-01-01'],
  })
  if (!checked.ok) throw new Error(checked.message)
  const schedule = checked.schedule
  const from = Date.UTC(2026, 0, 1)
  const piece = (t: number) => businessMs(schedule, t, t + QUARTER_HOUR_MS)
  rows.push({ what: 'businessMs 15 min', zone: schedule.zone, cold: measure(piece, from), warm: measure(piece, from) })
  const month = (t: number) => businessMs(schedule, t, t + 30 * 86_400_000)
  rows.push({ what: 'businessMs 30 days', zone: schedule.zone, cold: measure(month, from), warm: measure(month, from) })
  return rows
}

if (import.meta.main) {
  process.stdout.write(`Zoned time, ${CALLS.toLocaleString('en')} calls 15 minutes apart, bun ${Bun.version}\n`)
  for (const { what, zone, cold, warm } of benchZonedTime()) {
    process.stdout.write(
      `  ${what.padEnd(20)} ${zone.padEnd(20)} cold ${cold.toFixed(0).padStart(6)} ns/call   warm ${warm.toFixed(0).padStart(6)} ns/call\n`,
    )
  }
}
