// The cron loop on a fake clock: intervals, error isolation, no overlap, clean stop, a log line per run.
import { describe, expect, test } from 'bun:test'
import { Scheduler, SLOW_RUN_MS } from '../../src/jobs/scheduler.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { FakeClock } from '../helpers/clock.ts'

function setup() {
  const clock = new FakeClock()
  const logs = memorySink()
  const scheduler = new Scheduler({ clock, log: createLogger({ level: 'debug', sink: logs }), tickMs: 1000 })
  return { clock, logs, scheduler }
}

describe('intervals', () => {
  test('a task runs once per interval, first one interval after registration', async () => {
    const { clock, scheduler } = setup()
    const runs: number[] = []
    scheduler.register({ name: 'count', intervalMs: 1000, run: ({ now }) => void runs.push(now) })
    const start = clock.now()
    await scheduler.tick()
    clock.advance(999)
    await scheduler.tick()
    expect(runs).toEqual([])
    clock.advance(1)
    await scheduler.tick()
    await scheduler.tick()
    expect(runs).toEqual([start + 1000])
    clock.advance(1000)
    await scheduler.tick()
    expect(runs).toEqual([start + 1000, start + 2000])
    expect(scheduler.status().count).toMatchObject({ runs: 2, next_run_at: new Date(start + 3000).toISOString() })
  })

  test('runAtStart runs at the first tick', async () => {
    const { scheduler } = setup()
    let runs = 0
    scheduler.register({ name: 'boot', intervalMs: 60_000, runAtStart: true, run: () => void runs++ })
    await scheduler.tick()
    expect(runs).toBe(1)
  })

  test('a tick after a long pause runs a task once, not once per missed interval', async () => {
    const { clock, scheduler } = setup()
    let runs = 0
    scheduler.register({ name: 'catchup', intervalMs: 1000, run: () => void runs++ })
    clock.advance(10_000)
    await scheduler.tick()
    await scheduler.tick()
    expect(runs).toBe(1)
  })

  test('names are unique and intervals positive', () => {
    const { scheduler } = setup()
    scheduler.register({ name: 'a', intervalMs: 1, run() {} })
    expect(() => scheduler.register({ name: 'a', intervalMs: 1, run() {} })).toThrow('cron task a is registered twice')
    expect(() => scheduler.register({ name: 'b', intervalMs: 0, run() {} })).toThrow('cron task b needs a positive interval')
  })
})

describe('failures', () => {
  test('a task that throws is recorded and logged, others still run, and it runs again next time', async () => {
    const { clock, logs, scheduler } = setup()
    let attempts = 0
    let healthy = 0
    scheduler.register({
      name: 'broken',
      intervalMs: 1000,
      run() {
        attempts++
        throw new Error(`attempt ${attempts} failed`)
      },
    })
    scheduler.register({ name: 'healthy', intervalMs: 1000, run: () => void healthy++ })
    for (let i = 0; i < 3; i++) {
      clock.advance(1000)
      await scheduler.tick()
    }
    expect(attempts).toBe(3)
    expect(healthy).toBe(3)
    expect(scheduler.status().broken).toMatchObject({ runs: 3, failures: 3, last_error: 'attempt 3 failed' })
    const errorLines = logs.records().filter((r) => r.task === 'broken')
    expect(errorLines).toHaveLength(3)
    expect(errorLines[2]).toMatchObject({ level: 'error', msg: 'cron', outcome: 'error', error: { message: 'attempt 3 failed' } })
  })

  test('an async rejection is isolated the same way', async () => {
    const { clock, scheduler } = setup()
    scheduler.register({ name: 'rejects', intervalMs: 1000, run: async () => Promise.reject(new Error('nope')) })
    clock.advance(1000)
    await scheduler.tick()
    expect(scheduler.status().rejects).toMatchObject({ failures: 1, last_error: 'nope' })
  })
})

describe('overlap and shutdown', () => {
  test('a slow task never overlaps itself; it runs again once finished and due', async () => {
    const { clock, scheduler } = setup()
    let started = 0
    let release!: () => void
    scheduler.register({
      name: 'slow',
      intervalMs: 1000,
      run: () => {
        started++
        return new Promise<void>((resolve) => (release = resolve))
      },
    })
    clock.advance(1000)
    const first = scheduler.tick()
    for (let i = 0; i < 5; i++) {
      clock.advance(1000)
      void scheduler.tick()
    }
    expect(started).toBe(1)
    release()
    await first
    // tick() resolves when the runs it started end, so release the second run before awaiting it.
    const second = scheduler.tick()
    expect(started).toBe(2)
    release()
    await second
  })

  test('stop() aborts the signal, waits for running tasks, and later ticks do nothing', async () => {
    const { clock, scheduler } = setup()
    let finished = false
    let sawAbort = false
    let runs = 0
    scheduler.register({
      name: 'long',
      intervalMs: 1000,
      run: async ({ signal }) => {
        runs++
        await new Promise((resolve) => signal.addEventListener('abort', resolve))
        sawAbort = signal.aborted
        await Bun.sleep(20)
        finished = true
      },
    })
    clock.advance(1000)
    void scheduler.tick()
    await scheduler.stop()
    expect(sawAbort).toBe(true)
    expect(finished).toBe(true)
    clock.advance(5000)
    await scheduler.tick()
    expect(runs).toBe(1)
  })
})

describe('logging', () => {
  test('each run writes one line with the task, outcome, duration and what the task reported', async () => {
    const { clock, logs, scheduler } = setup()
    scheduler.register({ name: 'reporting', intervalMs: 1000, run: () => ({ pruned: 7 }) })
    clock.advance(1000)
    await scheduler.tick()
    const lines = logs.records().filter((r) => r.task === 'reporting')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'cron', outcome: 'ok', pruned: 7 })
    expect(lines[0]!.duration_ms).toBeGreaterThanOrEqual(0)
  })

  test('a run that found nothing to do is logged at debug, without the worked flag; one that did work at info', async () => {
    const { clock, logs, scheduler } = setup()
    let claimed = 0
    scheduler.register({ name: 'poller', intervalMs: 1000, run: () => ({ worked: claimed > 0, claimed }) })
    clock.advance(1000)
    await scheduler.tick()
    claimed = 2
    clock.advance(1000)
    await scheduler.tick()
    const lines = logs.records().filter((r) => r.task === 'poller')
    expect(lines.map((l) => [l.level, l.claimed])).toEqual([
      ['debug', 0],
      ['info', 2],
    ])
    expect(lines.every((l) => !('worked' in l))).toBe(true)
    // /health still shows both runs.
    expect(scheduler.status().poller).toMatchObject({ runs: 2, failures: 0, last_error: null })
  })

  test('an idle run that took SLOW_RUN_MS or longer stays at info; a failing one is an error whatever it would have said', async () => {
    const { clock, logs, scheduler } = setup()
    scheduler.register({
      name: 'slow-idle',
      intervalMs: 1000,
      run: async () => {
        await Bun.sleep(SLOW_RUN_MS + 20)
        return { worked: false }
      },
    })
    scheduler.register({ name: 'broken-idle', intervalMs: 1000, run: () => Promise.reject(new Error('disk full')) })
    clock.advance(1000)
    await scheduler.tick()
    expect(logs.records().find((r) => r.task === 'slow-idle')).toMatchObject({ level: 'info', outcome: 'ok' })
    expect(logs.records().find((r) => r.task === 'broken-idle')).toMatchObject({ level: 'error', outcome: 'error' })
  })

  test('at LOG_LEVEL=info an idle run writes nothing', async () => {
    const logs = memorySink()
    const clock = new FakeClock()
    const scheduler = new Scheduler({ clock, log: createLogger({ level: 'info', sink: logs }), tickMs: 1000 })
    scheduler.register({ name: 'quiet', intervalMs: 1000, run: () => ({ worked: false, claimed: 0 }) })
    for (let i = 0; i < 5; i++) {
      clock.advance(1000)
      await scheduler.tick()
    }
    expect(logs.lines).toEqual([])
    expect(scheduler.status().quiet!.runs).toBe(5)
  })
})

describe('start()', () => {
  test('ticks on real time until stopped', async () => {
    const scheduler = new Scheduler({ clock: systemClock, log: createLogger({ level: 'error', sink: memorySink() }), tickMs: 10 })
    let runs = 0
    scheduler.register({ name: 'fast', intervalMs: 10, runAtStart: true, run: () => void runs++ })
    scheduler.start()
    for (let waited = 0; runs < 3 && waited < 5000; waited += 10) await Bun.sleep(10)
    await scheduler.stop()
    expect(runs).toBeGreaterThanOrEqual(3)
    const after = runs
    await Bun.sleep(50)
    expect(runs).toBe(after)
  })
})

describe('among several instances: the cluster tasks on the leader only', () => {
  function withLeadership(lead: () => boolean) {
    const clock = new FakeClock()
    const logs = memorySink()
    const shared: Record<string, unknown> = {}
    const scheduler = new Scheduler({
      clock,
      log: createLogger({ level: 'debug', sink: logs }),
      tickMs: 1000,
      instanceId: 'api-2',
      leadership: { lead: async () => lead(), ran: (name, status) => void (shared[name] = status) },
    })
    const runs: string[] = []
    scheduler.register({ name: 'cleanup', intervalMs: 1000, run: () => void runs.push('cleanup') })
    scheduler.register({ name: 'dispatch', intervalMs: 1000, scope: 'instance', run: () => void runs.push('dispatch') })
    return { clock, logs, scheduler, runs, shared }
  }

  test('a follower runs only its own tasks; once it leads, the overdue cluster task runs at once', async () => {
    let leading = false
    const { clock, logs, scheduler, runs, shared } = withLeadership(() => leading)
    expect(scheduler.isLeader).toBe(false)
    clock.advance(1000)
    await scheduler.tick()
    expect(runs).toEqual(['dispatch'])
    expect(scheduler.status().cleanup).toMatchObject({ runs: 0, ran_by: null, scope: 'cluster' })
    leading = true
    clock.advance(10)
    await scheduler.tick()
    expect(runs).toEqual(['dispatch', 'cleanup'])
    expect(scheduler.isLeader).toBe(true)
    // The cluster task's status is shared (for the other instances' /health); the instance's own is not.
    expect(Object.keys(shared)).toEqual(['cleanup'])
    expect(shared.cleanup).toMatchObject({ runs: 1, ran_by: 'api-2', scope: 'cluster' })
    expect(logs.records().filter((r) => r.msg === 'cron leadership taken').length).toBe(1)
  })

  test('a leader that loses the lock stops running the cluster tasks at the next tick, and says so', async () => {
    let leading = true
    const { clock, logs, scheduler, runs } = withLeadership(() => leading)
    clock.advance(1000)
    await scheduler.tick()
    leading = false
    clock.advance(1000)
    await scheduler.tick()
    expect(runs).toEqual(['cleanup', 'dispatch', 'dispatch'])
    expect(logs.records().some((r) => r.msg === 'cron leadership lost or held elsewhere')).toBe(true)
  })

  test('a leadership check that fails counts as not leading', async () => {
    const { clock, scheduler, runs } = withLeadership(() => {
      throw new Error('PostgreSQL is away')
    })
    clock.advance(1000)
    await scheduler.tick()
    expect(runs).toEqual(['dispatch'])
  })
})
