// Structured logger (src/lib/log.ts): JSON lines, level filtering, bound child fields, Error/bigint serialisation, and fileSink batching by time and size.
import { describe, expect, test } from 'bun:test'
import { createLogger, fileSink, LOG_LEVELS, type LogLevel, type LogSink, memorySink } from '../../src/lib/log.ts'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

function setup(level: LogLevel = 'debug', fields?: Record<string, unknown>) {
  const sink = memorySink()
  const log = createLogger({ level, sink, now: () => T0, ...(fields ? { fields } : {}) })
  return { sink, log }
}

/** A stand-in for a Bun file (stdout/stderr) that records what its writer was asked to do. */
function fakeFile() {
  const calls: Array<['write', string] | ['flush']> = []
  let writers = 0
  return {
    calls,
    writes: () => calls.filter((c) => c[0] === 'write').map((c) => c[1]),
    flushes: () => calls.filter((c) => c[0] === 'flush').length,
    writers: () => writers,
    writer() {
      writers++
      return {
        write: (s: string) => void calls.push(['write', s]),
        flush: () => void calls.push(['flush']),
      }
    },
  }
}

describe('createLogger with memorySink', () => {
  test('writes one JSON object per line: time, level, msg, then fields', () => {
    const { sink, log } = setup()
    log.info('hello', { a: 1, b: 'two' })
    expect(sink.lines).toEqual(['{"time":"2026-01-01T12:00:00.000Z","level":"info","msg":"hello","a":1,"b":"two"}'])
    expect(sink.records()).toEqual([{ time: '2026-01-01T12:00:00.000Z', level: 'info', msg: 'hello', a: 1, b: 'two' }])
  })

  test('fields are optional', () => {
    const { sink, log } = setup()
    log.warn('bare')
    expect(sink.records()).toEqual([{ time: '2026-01-01T12:00:00.000Z', level: 'warn', msg: 'bare' }])
  })

  test('a newline inside a message or field stays on one line', () => {
    const { sink, log } = setup()
    log.error('line one\nline two', { detail: 'a\r\nb' })
    expect(sink.lines).toHaveLength(1)
    expect(sink.lines[0]).not.toMatch(/[\r\n]/)
    expect(sink.records()[0]).toMatchObject({ msg: 'line one\nline two', detail: 'a\r\nb' })
  })

  test('each method logs at its own level, in call order', () => {
    const { sink, log } = setup()
    log.debug('d')
    log.info('i')
    log.warn('w')
    log.error('e')
    expect(sink.records().map((r) => [r.level, r.msg])).toEqual([
      ['debug', 'd'],
      ['info', 'i'],
      ['warn', 'w'],
      ['error', 'e'],
    ])
  })

  test('time comes from the injected clock, read per line', () => {
    const sink = memorySink()
    let now = T0
    const log = createLogger({ level: 'info', sink, now: () => now })
    log.info('a')
    now += 1_500
    log.info('b')
    expect(sink.records().map((r) => r.time)).toEqual(['2026-01-01T12:00:00.000Z', '2026-01-01T12:00:01.500Z'])
  })

  test('without a clock, time is the current ISO time', () => {
    const sink = memorySink()
    const log = createLogger({ level: 'info', sink })
    const before = Date.now()
    log.info('now')
    const after = Date.now()
    const time = sink.records()[0]!.time as string
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(Date.parse(time)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(time)).toBeLessThanOrEqual(after)
  })

  test.each([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
  ] as Array<[LogLevel, LogLevel[]]>)('a %s logger writes only %p', (level, written) => {
    const { sink, log } = setup(level)
    for (const l of LOG_LEVELS) log[l](`at ${l}`)
    expect(sink.records().map((r) => r.level)).toEqual(written)
  })

  test('a child logger obeys the parent level', () => {
    const { sink, log } = setup('info')
    const child = log.child({ requestId: 'r1' })
    child.debug('dropped')
    child.info('kept')
    expect(sink.records().map((r) => r.msg)).toEqual(['kept'])
  })
})

describe('bound fields', () => {
  test('fields given at creation appear on every line', () => {
    const { sink, log } = setup('debug', { service: 'api' })
    log.info('a')
    log.error('b', { extra: true })
    expect(sink.records()).toEqual([
      { time: '2026-01-01T12:00:00.000Z', level: 'info', msg: 'a', service: 'api' },
      { time: '2026-01-01T12:00:00.000Z', level: 'error', msg: 'b', service: 'api', extra: true },
    ])
  })

  test('child() binds fields; grandchildren accumulate them', () => {
    const { sink, log } = setup('debug', { service: 'api' })
    const child = log.child({ requestId: 'r1' })
    const grandchild = child.child({ userId: 'u1' })
    grandchild.info('deep')
    expect(sink.records()[0]).toEqual({
      time: '2026-01-01T12:00:00.000Z',
      level: 'info',
      msg: 'deep',
      service: 'api',
      requestId: 'r1',
      userId: 'u1',
    })
  })

  test('per-call fields override bound ones, only for that call', () => {
    const { sink, log } = setup()
    const child = log.child({ requestId: 'r1', route: '/a' })
    child.info('x', { route: '/b' })
    child.info('y')
    expect(sink.records().map((r) => [r.requestId, r.route])).toEqual([
      ['r1', '/b'],
      ['r1', '/a'],
    ])
  })

  test('a child can override a field bound by its parent', () => {
    const { sink, log } = setup('debug', { component: 'http' })
    log.child({ component: 'cron' }).info('tick')
    log.info('plain')
    expect(sink.records().map((r) => r.component)).toEqual(['cron', 'http'])
  })

  test('a child does not change its parent or siblings', () => {
    const { sink, log } = setup()
    const a = log.child({ who: 'a' })
    const b = log.child({ who: 'b' })
    a.info('1')
    b.info('2')
    log.info('3')
    expect(sink.records().map((r) => r.who)).toEqual(['a', 'b', undefined])
  })

  test('binding copies the fields object, so later mutation does not leak in', () => {
    const { sink, log } = setup()
    const fields: Record<string, unknown> = { requestId: 'r1' }
    const child = log.child(fields)
    fields.requestId = 'changed'
    child.info('x')
    expect(sink.records()[0]!.requestId).toBe('r1')
  })
})

describe('serialisation', () => {
  test('an Error keeps its name, message and stack', () => {
    const { sink, log } = setup()
    const err = new TypeError('boom')
    log.error('failed', { err })
    const record = sink.records()[0]!
    expect(record.err).toEqual({ name: 'TypeError', message: 'boom', stack: err.stack })
    expect(typeof (record.err as { stack: unknown }).stack).toBe('string')
    expect((record.err as { stack: string }).stack).toContain('boom')
  })

  test('a custom Error subclass keeps its own name', () => {
    class QuotaError extends Error {
      override name = 'QuotaError'
    }
    const { sink, log } = setup()
    log.warn('over', { err: new QuotaError('too many') })
    expect(sink.records()[0]!.err).toMatchObject({ name: 'QuotaError', message: 'too many' })
  })

  test('Errors nested in objects and arrays are serialised too', () => {
    const { sink, log } = setup()
    log.error('many', { errors: [new Error('one'), new RangeError('two')], ctx: { cause: new Error('three') } })
    const record = sink.records()[0] as { errors: Array<{ name: string; message: string }>; ctx: { cause: { message: string } } }
    expect(record.errors.map((e) => [e.name, e.message])).toEqual([
      ['Error', 'one'],
      ['RangeError', 'two'],
    ])
    expect(record.ctx.cause.message).toBe('three')
  })

  test('a bigint becomes its decimal string, also when nested', () => {
    const { sink, log } = setup()
    log.info('big', { n: 12345678901234567890n, nested: { m: -5n }, list: [0n, 1n] })
    expect(sink.records()[0]).toMatchObject({ n: '12345678901234567890', nested: { m: '-5' }, list: ['0', '1'] })
  })

  test('other JSON values pass through unchanged', () => {
    const { sink, log } = setup()
    log.info('values', { s: 's', n: 1.5, t: true, f: false, z: null, arr: [1, 'a'], obj: { k: 'v' } })
    expect(sink.records()[0]).toMatchObject({ s: 's', n: 1.5, t: true, f: false, z: null, arr: [1, 'a'], obj: { k: 'v' } })
  })
})

describe('flush', () => {
  test('logger.flush() and child.flush() flush the sink', () => {
    let flushes = 0
    const sink: LogSink = { write: () => {}, flush: () => void flushes++ }
    const log = createLogger({ level: 'info', sink })
    log.flush()
    log.child({ a: 1 }).flush()
    expect(flushes).toBe(2)
  })

  test('memorySink keeps lines across flush', () => {
    const { sink, log } = setup()
    log.info('a')
    log.flush()
    expect(sink.lines).toHaveLength(1)
  })
})

describe('fileSink', () => {
  test('takes one writer from the file', () => {
    const file = fakeFile()
    const sink = fileSink(file)
    sink.write('a')
    sink.write('b')
    expect(file.writers()).toBe(1)
  })

  test('keeps lines and hands them to the file in one write after the interval, then flushes', async () => {
    const file = fakeFile()
    const sink = fileSink(file, 20)
    sink.write('one')
    sink.write('two')
    sink.write('three')
    // Bun's file sink makes a syscall per write: nothing reaches it line by line.
    expect(file.calls).toEqual([])
    await nextTurn()
    expect(file.calls).toEqual([])
    await Bun.sleep(40)
    expect(file.calls).toEqual([['write', 'one\ntwo\nthree\n'], ['flush']])
  })

  test('a later write after a flush schedules its own', async () => {
    const file = fakeFile()
    const sink = fileSink(file, 20)
    sink.write('a')
    await Bun.sleep(40)
    sink.write('b')
    sink.write('c')
    await Bun.sleep(40)
    expect(file.calls).toEqual([['write', 'a\n'], ['flush'], ['write', 'b\nc\n'], ['flush']])
  })

  test('past the byte threshold it writes and flushes at once, without waiting', () => {
    const file = fakeFile()
    const sink = fileSink(file, 60_000, 10)
    sink.write('1234')
    expect(file.calls).toEqual([])
    sink.write('56789')
    expect(file.calls).toEqual([['write', '1234\n56789\n'], ['flush']])
    sink.flush()
  })

  test('nothing written means nothing written or flushed, by the timer or by flush()', async () => {
    const file = fakeFile()
    const sink = fileSink(file, 10)
    await Bun.sleep(30)
    sink.flush()
    expect(file.calls).toEqual([])
  })

  test('flush() writes immediately, and the pending timer then has nothing to do', async () => {
    const file = fakeFile()
    const sink = fileSink(file, 20)
    sink.write('a')
    sink.flush()
    expect(file.calls).toEqual([['write', 'a\n'], ['flush']])
    await Bun.sleep(40)
    expect(file.calls).toHaveLength(2)
  })

  test('a logger over fileSink batches info lines, and writes a warning (and what came before it) at once', async () => {
    const file = fakeFile()
    const log = createLogger({ level: 'info', sink: fileSink(file, 20), now: () => T0 })
    log.info('a', { n: 1 })
    log.debug('dropped')
    expect(file.calls).toEqual([])
    log.warn('b')
    expect(file.writes()).toEqual([
      '{"time":"2026-01-01T12:00:00.000Z","level":"info","msg":"a","n":1}\n{"time":"2026-01-01T12:00:00.000Z","level":"warn","msg":"b"}\n',
    ])
    log.info('c')
    log.error('d')
    expect(file.writes()).toHaveLength(2)
    expect(file.flushes()).toBe(2)
  })

  test('over a real file: every line arrives whole and in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-log-'))
    try {
      const path = join(dir, 'out.log')
      const sink = fileSink(Bun.file(path), 20, 4096)
      const log = createLogger({ level: 'info', sink })
      for (let i = 0; i < 1000; i++) log.info('line', { i, text: 'Zoë 🔥 "quoted"' })
      await Bun.sleep(60)
      log.flush()
      const records = readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { i: number; text: string })
      expect(records.map((r) => r.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i))
      expect(records.every((r) => r.text === 'Zoë 🔥 "quoted"')).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('robustness', () => {
  test('fields cannot overwrite time, level or msg, whether bound or per call', () => {
    const { sink, log } = setup('debug', { msg: 'bound', level: 'error' })
    log.info('real', { time: 'x', level: 'error', msg: 'spoofed' })
    const line = JSON.parse(sink.lines[0]!)
    expect(line).toMatchObject({ time: new Date(T0).toISOString(), level: 'info', msg: 'real' })
    expect(Object.keys(line).slice(0, 3)).toEqual(['time', 'level', 'msg'])
  })

  test('a cyclic field does not throw; the line is kept with a note', () => {
    const { sink, log } = setup()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => log.warn('cyclic', { cyclic })).not.toThrow()
    const line = JSON.parse(sink.lines[0]!)
    expect(line).toMatchObject({ level: 'warn', msg: 'cyclic' })
    expect(line.log_error).toStartWith('fields not serializable:')
  })

  test('errors keep their code and cause', () => {
    const { sink, log } = setup()
    const error = Object.assign(new Error('outer', { cause: new Error('inner') }), { code: 'SQLITE_BUSY' })
    log.error('failed', { error })
    const logged = JSON.parse(sink.lines[0]!).error
    expect(logged).toMatchObject({ name: 'Error', message: 'outer', code: 'SQLITE_BUSY', cause: { name: 'Error', message: 'inner' } })
  })
})
