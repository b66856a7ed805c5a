// SlidingWindows (src/lib/sliding-window.ts) and clientNetwork (src/lib/cidr.ts): exact acceptance, all-or-none counting, remaining, exact retryAfterMs, previous-window weighting, forgetting, sweep/takeDirty/restore, the maxKeys cap, the choice of the reported window, and firstOfWindow (the fail-open report).
import { describe, expect, test } from 'bun:test'
import { clientNetwork } from '../../src/lib/cidr.ts'
import { firstOfWindow, SlidingWindows, type Verdict, type WindowCheck } from '../../src/lib/sliding-window.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** A multiple of a day, so also the start of a minute and of an hour window. */
const T0 = 20_000 * DAY

const minute = (key: string, limit: number): WindowCheck => ({ key, limit, windowMs: MINUTE })

function accepted(verdict: Verdict) {
  if (!verdict.accepted) throw new Error(`expected an acceptance, got a refusal by ${verdict.check.key}`)
  return verdict.report
}

function refused(verdict: Verdict) {
  if (verdict.accepted) throw new Error(`expected a refusal, got an acceptance (remaining ${verdict.report.remaining})`)
  return verdict
}

/** Hits `times` times at `now`; returns the remaining reported by each (all must be accepted). */
function fill(windows: SlidingWindows, checks: WindowCheck[], times: number, now: number): number[] {
  return Array.from({ length: times }, () => accepted(windows.hit(checks, now)).remaining)
}

describe('one window', () => {
  test('accepts exactly `limit` requests, with remaining counting down, then refuses', () => {
    const w = new SlidingWindows(100)
    const check = minute('k', 5)
    expect(fill(w, [check], 5, T0 + 10)).toEqual([4, 3, 2, 1, 0])
    const no = refused(w.hit([check], T0 + 10))
    expect(no.check).toEqual(check)
    expect(no.retryAfterMs).toBe(MINUTE + 1 - 10)
    expect(no.report).toEqual({ limit: 5, remaining: 0, resetAt: T0 + MINUTE + 1 })
  })

  test('the reset of an accepted request: the end of the next window while some remain, the moment of the next acceptance at 0', () => {
    const w = new SlidingWindows(100)
    const check = minute('k', 3)
    expect(accepted(w.hit([check], T0 + 5_000))).toEqual({ limit: 3, remaining: 2, resetAt: T0 + 2 * MINUTE })
    expect(accepted(w.hit([check], T0 + 5_000))).toEqual({ limit: 3, remaining: 1, resetAt: T0 + 2 * MINUTE })
    expect(accepted(w.hit([check], T0 + 5_000))).toEqual({ limit: 3, remaining: 0, resetAt: T0 + MINUTE + 1 })
  })

  test('refused requests are not counted', () => {
    const w = new SlidingWindows(100)
    const check = minute('k', 3)
    fill(w, [check], 3, T0)
    for (let i = 0; i < 50; i++) refused(w.hit([check], T0 + i))
    // Had the refusals counted (53 in the previous window), nothing would pass at T0 + 1 min + 1 ms:
    // 3 weighted by 59 999/60 000 is under 3, so exactly one passes.
    expect(accepted(w.hit([check], T0 + MINUTE + 1)).remaining).toBe(0)
    refused(w.hit([check], T0 + MINUTE + 1))
  })

  // [case, setup, moment of the refusal, expected retryAfterMs]
  const retryCases: [string, (w: SlidingWindows, c: WindowCheck) => void, number, number][] = [
    ['all at the start of the window', (w, c) => fill(w, [c], c.limit, T0), T0, MINUTE + 1],
    ['all half-way through the window', (w, c) => fill(w, [c], c.limit, T0 + 30_000), T0 + 30_000, 30_001],
    ['all in the last ms of the window', (w, c) => fill(w, [c], c.limit, T0 + MINUTE - 1), T0 + MINUTE - 1, 2],
    [
      // 7 in the previous window; at +20 s they weigh 7 * 40/60 = 4.67, so 6 more fit (4.67 + 5 < 10 <= 4.67 + 6).
      // 7 * (60 000 - t) + 6 * 60 000 < 600 000  <=>  t > 25 714.28...: accepted from +25 715.
      'with a previous window weighing a fraction',
      (w, c) => {
        fill(w, [c], 7, T0 - MINUTE)
        expect(fill(w, [c], 6, T0 + 20_000)).toEqual([5, 4, 3, 2, 1, 0])
      },
      T0 + 20_000,
      5_715,
    ],
    [
      // 10 in the previous window; at +30 s they weigh 5, so 5 fit; one more at +30 001 (weight 4.9998 + 5);
      // then 10 * (60 000 - t) + 6 * 60 000 < 600 000  <=>  t > 36 000.
      'with a previous window, later in the current one',
      (w, c) => {
        fill(w, [c], 10, T0 - MINUTE)
        expect(fill(w, [c], 5, T0 + 30_000)).toEqual([4, 3, 2, 1, 0])
        refused(w.hit([c], T0 + 30_000))
        expect(fill(w, [c], 1, T0 + 30_001)).toEqual([0])
      },
      T0 + 30_001,
      6_000,
    ],
  ]

  test.each(retryCases)('retryAfterMs is exact: %s', (_, setup, at, retryAfterMs) => {
    const w = new SlidingWindows(100)
    const check = minute('k', 10)
    setup(w, check)
    const no = refused(w.hit([check], at))
    expect(no.retryAfterMs).toBe(retryAfterMs)
    expect(no.report).toEqual({ limit: 10, remaining: 0, resetAt: at + retryAfterMs })
    // One ms earlier: still refused, with the same moment of acceptance.
    const early = refused(w.hit([check], at + retryAfterMs - 1))
    expect(early.retryAfterMs).toBe(1)
    accepted(w.hit([check], at + retryAfterMs))
  })

  test('previous window weighting: 60 in the previous minute, half-way through the current one exactly 30 more are accepted', () => {
    const w = new SlidingWindows(100)
    const check = minute('k', 60)
    fill(w, [check], 60, T0 - MINUTE)
    const remaining = fill(w, [check], 30, T0 + 30_000)
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i))
    refused(w.hit([check], T0 + 30_000))
  })

  test('a quarter through: the previous window weighs three quarters', () => {
    const w = new SlidingWindows(100)
    const check = minute('k', 40)
    fill(w, [check], 40, T0 - MINUTE)
    expect(fill(w, [check], 10, T0 + 15_000).at(-1)).toBe(0)
    refused(w.hit([check], T0 + 15_000))
  })

  test('a window idle for two windowMs is forgotten; one ms earlier its count still weighs', () => {
    // limit = 60 000 a minute, so a full previous window weighs exactly one request per ms of overlap.
    const check = minute('k', MINUTE)
    const full = () => {
      const w = new SlidingWindows(100)
      fill(w, [check], MINUTE, T0)
      return w
    }
    // At T0 + 2 min - 1 ms the window of T0 overlaps by 1 ms: it weighs 1, plus this request.
    expect(accepted(full().hit([check], T0 + 2 * MINUTE - 1)).remaining).toBe(MINUTE - 2)
    // At T0 + 2 min, and long after: forgotten.
    expect(accepted(full().hit([check], T0 + 2 * MINUTE)).remaining).toBe(MINUTE - 1)
    expect(accepted(full().hit([check], T0 + 100 * MINUTE)).remaining).toBe(MINUTE - 1)
    // In the next window it still weighs in full at its start.
    expect(refused(full().hit([check], T0 + MINUTE)).retryAfterMs).toBe(1)
  })

  test('a key checked with another windowMs starts afresh', () => {
    const w = new SlidingWindows(100)
    fill(w, [minute('k', 2)], 2, T0)
    refused(w.hit([minute('k', 2)], T0))
    expect(accepted(w.hit([{ key: 'k', limit: 2, windowMs: HOUR }], T0)).remaining).toBe(1)
  })
})

describe('several checks', () => {
  test('all or none: the first exhausted check refuses, and the other checks are not incremented', () => {
    const w = new SlidingWindows(100)
    const a = minute('a', 5)
    const b = minute('b', 2)
    const c = minute('c', 5)
    fill(w, [a, b, c], 2, T0)
    for (let i = 0; i < 5; i++) expect(refused(w.hit([a, b, c], T0)).check).toEqual(b)
    // a and c counted the 2 accepted requests only: 3 left each.
    expect(fill(w, [a], 3, T0)).toEqual([2, 1, 0])
    expect(fill(w, [c], 3, T0)).toEqual([2, 1, 0])
  })

  test('when several are exhausted, the first in order is named', () => {
    const w = new SlidingWindows(100)
    const a = minute('a', 1)
    const b = minute('b', 1)
    fill(w, [a, b], 1, T0)
    expect(refused(w.hit([a, b], T0)).check.key).toBe('a')
    expect(refused(w.hit([b, a], T0)).check.key).toBe('b')
  })

  test('a refusal reports the refusing window and its own retryAfterMs', () => {
    const w = new SlidingWindows(100)
    const day = { key: 'd', limit: 2, windowMs: DAY }
    const min = minute('m', 100)
    fill(w, [min, day], 2, T0 + HOUR)
    const no = refused(w.hit([min, day], T0 + HOUR))
    expect(no.check).toEqual(day)
    expect(no.retryAfterMs).toBe(DAY - HOUR + 1)
    expect(no.report).toEqual({ limit: 2, remaining: 0, resetAt: T0 + DAY + 1 })
  })

  test('the report is the most constraining window: fewest remaining, whatever the order', () => {
    const w = new SlidingWindows(100)
    const wide = minute('wide', 10)
    const narrow = { key: 'narrow', limit: 4, windowMs: HOUR }
    expect(accepted(w.hit([wide, narrow], T0))).toEqual({ limit: 4, remaining: 3, resetAt: T0 + 2 * HOUR })
    expect(accepted(w.hit([narrow, wide], T0))).toEqual({ limit: 4, remaining: 2, resetAt: T0 + 2 * HOUR })
    fill(w, [wide], 7, T0)
    // wide: 9 counted, 1 left; narrow: 2 left.
    expect(accepted(w.hit([narrow, wide], T0 + 1))).toEqual({ limit: 10, remaining: 0, resetAt: T0 + MINUTE + 1 })
  })

  test('on a tie of remaining, the later reset', () => {
    const w = new SlidingWindows(100)
    const short = minute('short', 3)
    const long = { key: 'long', limit: 3, windowMs: HOUR }
    expect(accepted(w.hit([short, long], T0))).toEqual({ limit: 3, remaining: 2, resetAt: T0 + 2 * HOUR })
    expect(accepted(w.hit([long, short], T0))).toEqual({ limit: 3, remaining: 1, resetAt: T0 + 2 * HOUR })
    // Both at 0: the minute window accepts again at T0 + 1 min + 1, the hour window at T0 + 1 h + 1.
    expect(accepted(w.hit([short, long], T0))).toEqual({ limit: 3, remaining: 0, resetAt: T0 + HOUR + 1 })
  })

  test('no checks: accepted, with an empty report', () => {
    expect(new SlidingWindows(10).hit([], T0)).toEqual({ accepted: true, report: { limit: 0, remaining: 0, resetAt: T0 } })
  })
})

describe('takeDirty, sweep, restore', () => {
  test('takeDirty returns only the long windows (savedFromMs) counted since the last call, and clears their mark', () => {
    const w = new SlidingWindows(100, HOUR)
    const checks = [minute('m', 10), { key: 'h', limit: 10, windowMs: HOUR }, { key: 'd', limit: 10, windowMs: DAY }]
    fill(w, checks, 2, T0 + 5)
    expect(w.takeDirty()).toEqual([
      ['h', { windowMs: HOUR, start: T0, current: 2, previous: 0, dirty: false }],
      ['d', { windowMs: DAY, start: T0, current: 2, previous: 0, dirty: false }],
    ])
    expect(w.takeDirty()).toEqual([])
    fill(w, [checks[2]!], 1, T0 + 6)
    expect(w.takeDirty().map(([key, count]) => [key, count.current])).toEqual([['d', 3]])
    // With minute windows saved too, it takes them too.
    const short = new SlidingWindows(100, MINUTE)
    fill(short, [checks[0]!, checks[2]!], 1, T0)
    expect(short.takeDirty().map(([key]) => key)).toEqual(['m', 'd'])
  })

  test('a refusal does not mark a window dirty', () => {
    const w = new SlidingWindows(100, HOUR)
    const day = { key: 'd', limit: 1, windowMs: DAY }
    fill(w, [day], 1, T0)
    w.takeDirty()
    refused(w.hit([day], T0 + 1))
    expect(w.takeDirty()).toEqual([])
  })

  test('sweep drops idle keys (two windowMs after their window started) but not dirty ones, nor those still counting', () => {
    const w = new SlidingWindows(100, MINUTE)
    fill(w, [minute('idle', 5)], 1, T0)
    fill(w, [minute('dirty', 5)], 1, T0)
    fill(w, [minute('recent', 5)], 1, T0 + MINUTE)
    w.takeDirty()
    fill(w, [minute('dirty', 5)], 1, T0 + 1)
    expect(w.sweep(T0 + 2 * MINUTE - 1)).toBe(0)
    expect(w.size).toBe(3)
    expect(w.sweep(T0 + 2 * MINUTE)).toBe(1)
    expect(w.size).toBe(2)
    // 'recent' goes once idle; 'dirty' stays until taken, then goes.
    expect(w.sweep(T0 + 10 * MINUTE)).toBe(1)
    expect(w.size).toBe(1)
    w.takeDirty()
    expect(w.sweep(T0 + 10 * MINUTE)).toBe(1)
    expect(w.size).toBe(0)
  })

  test('restore puts a saved state back: the restored counts weigh as if never lost', () => {
    const w = new SlidingWindows(100, HOUR)
    const day = { key: 'd', limit: 1_000, windowMs: DAY }
    w.restore('d', { windowMs: DAY, start: T0, current: 998, previous: 0 })
    expect(w.size).toBe(1)
    expect(w.takeDirty()).toEqual([])
    expect(fill(w, [day], 2, T0 + HOUR)).toEqual([1, 0])
    expect(refused(w.hit([day], T0 + HOUR)).retryAfterMs).toBe(DAY - HOUR + 1)
  })

  test('restore of an old window: it rotates on the next hit (the previous day weighs, the one before not)', () => {
    const w = new SlidingWindows(100)
    const day = { key: 'd', limit: 100, windowMs: DAY }
    w.restore('d', { windowMs: DAY, start: T0 - DAY, current: 100, previous: 100 })
    // Half-way through the next day: 100 * 1/2 = 50 fit.
    expect(fill(w, [day], 50, T0 + DAY / 2).at(-1)).toBe(0)
    refused(w.hit([day], T0 + DAY / 2))
    const old = new SlidingWindows(100)
    old.restore('d', { windowMs: DAY, start: T0 - 2 * DAY, current: 100, previous: 100 })
    expect(fill(old, [day], 100, T0).at(-1)).toBe(0)
  })
})

describe('maxKeys', () => {
  test('at the cap, idle keys go first', () => {
    const w = new SlidingWindows(10)
    for (let i = 0; i < 10; i++) fill(w, [minute(`k${i}`, 5)], 5, T0)
    w.takeDirty()
    fill(w, [minute('new', 5)], 1, T0 + 2 * MINUTE)
    expect(w.size).toBe(1)
  })

  test('when idle keys made room, no active key is dropped', () => {
    const w = new SlidingWindows(10)
    for (let i = 0; i < 5; i++) fill(w, [minute(`old${i}`, 1)], 1, T0)
    w.takeDirty()
    for (let i = 0; i < 5; i++) fill(w, [minute(`live${i}`, 1)], 1, T0 + 2 * MINUTE)
    fill(w, [minute('new', 1)], 1, T0 + 2 * MINUTE)
    expect(w.size).toBe(6)
    for (let i = 0; i < 5; i++) refused(w.hit([minute(`live${i}`, 1)], T0 + 2 * MINUTE))
  })

  test('with no idle key, the oldest tenth goes (they start again from zero), the others keep their counts', () => {
    const w = new SlidingWindows(100)
    for (let i = 0; i < 100; i++) fill(w, [minute(`k${i}`, 1)], 1, T0)
    fill(w, [minute('new', 1)], 1, T0)
    expect(w.size).toBe(91)
    refused(w.hit([minute('k10', 1)], T0))
    refused(w.hit([minute('k99', 1)], T0))
    refused(w.hit([minute('new', 1)], T0))
    accepted(w.hit([minute('k0', 1)], T0))
    accepted(w.hit([minute('k9', 1)], T0))
    expect(w.size).toBe(93)
  })

  test('a cap below 10 drops one key at a time', () => {
    const w = new SlidingWindows(3)
    for (const key of ['a', 'b', 'c', 'd']) fill(w, [minute(key, 1)], 1, T0)
    expect(w.size).toBe(3)
    accepted(w.hit([minute('a', 1)], T0)) // 'a' was dropped for 'd'; re-adding it drops 'b'
    refused(w.hit([minute('c', 1)], T0))
    expect(w.size).toBe(3)
  })

  test('memory stays bounded: 50 000 distinct keys through a cap of 1 000', () => {
    const w = new SlidingWindows(1_000)
    let most = 0
    for (let i = 0; i < 50_000; i++) {
      w.hit([minute(`ip${i}`, 60), { key: `day${i % 7}`, limit: 1e9, windowMs: DAY }], T0 + i)
      most = Math.max(most, w.size)
    }
    expect(most).toBe(1_000)
  })
})

describe('firstOfWindow', () => {
  test.each([
    [60, MINUTE, T0],
    [60, MINUTE, T0 + 59_999],
    [2, MINUTE, T0 + 12_345],
    [1, MINUTE, T0 + 7],
    [1_000, DAY, T0 + 5 * HOUR],
    [1, 997, T0 + 996],
  ])('limit %p, window %p ms, at %p: the report of the first request of a fresh key', (limit, windowMs, now) => {
    const check = { key: 'k', limit, windowMs }
    expect(firstOfWindow(check, now)).toEqual(accepted(new SlidingWindows(10).hit([check], now)))
  })
})

describe('clientNetwork', () => {
  test.each([
    ['192.0.2.1', '192.0.2.1'],
    ['10.0.0.255', '10.0.0.255'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    // IPv4-mapped IPv6 is its IPv4 address, not one /64 shared by every IPv4 client.
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
    ['not-an-address', 'not-an-address'],
    ['gg::1', 'gg::1'],
  ])('%s -> %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network)
  })

  test('two addresses share a network exactly when their first 64 bits are equal', () => {
    expect(clientNetwork('2001:db8:a:b::1')).toBe(clientNetwork('2001:db8:a:b:c:d:e:f'))
    expect(clientNetwork('2001:db8:a:b::1')).not.toBe(clientNetwork('2001:db8:a:c::1'))
    expect(clientNetwork('192.0.2.1')).not.toBe(clientNetwork('192.0.2.2'))
  })
})
