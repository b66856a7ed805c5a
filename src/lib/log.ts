// Structured logger: one JSON object per line, with levels and bound fields; no framework, no globals.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export type LogFields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  /** A logger that adds `fields` to every line it writes. */
  child(fields: LogFields): Logger
  /** Writes out anything buffered; call before the process exits. */
  flush(): void
}

export interface LogSink {
  write(line: string): void
  flush(): void
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export function createLogger(options: { level: LogLevel; sink: LogSink; now?: () => number; fields?: LogFields }): Logger {
  const min = rank[options.level]
  const now = options.now ?? Date.now
  const make = (bound: LogFields): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
      if (rank[level] < min) return
      const time = new Date(now()).toISOString()
      // time, level and msg lead the line and cannot be overwritten by fields.
      const record: LogFields = { time, level, msg }
      let plain = true
      for (const source of [bound, fields]) {
        if (source === undefined) continue
        for (const key in source) {
          if (key === 'time' || key === 'level' || key === 'msg') continue
          const value = source[key]
          if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) plain = false
          record[key] = value
        }
      }
      let line: string
      try {
        // The replacer doubles the cost of a line; lines of plain values (every access line) skip it.
        line = plain ? JSON.stringify(record) : JSON.stringify(record, jsonSafe)
      } catch (error) {
        // Logging must never throw (a cyclic field, say): keep the line, drop the fields.
        line = JSON.stringify({ time, level, msg, log_error: `fields not serializable: ${(error as Error).message}` })
      }
      options.sink.write(line)
      // A warning or an error is written out at once: it may be the last line before a crash.
      if (rank[level] >= rank.warn) options.sink.flush()
    }
    return {
      debug: (msg, fields) => emit('debug', msg, fields),
      info: (msg, fields) => emit('info', msg, fields),
      warn: (msg, fields) => emit('warn', msg, fields),
      error: (msg, fields) => emit('error', msg, fields),
      child: (fields) => make({ ...bound, ...fields }),
      flush: () => options.sink.flush(),
    }
  }
  return make(options.fields ?? {})
}

// Errors serialize to {} by default; keep their class, message, stack, code and cause. BigInts would throw.
function jsonSafe(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message, stack: value.stack }
    if ('code' in value && value.code !== undefined) out.code = value.code
    if (value.cause !== undefined) out.cause = value.cause
    return out
  }
  if (typeof value === 'bigint') return value.toString()
  return value
}

/**
 * A sink over a Bun file sink (stdout or stderr) that writes in batches: lines are kept here and handed
 * to the file in one write every `flushEveryMs`, or at once past `flushBytes`. Bun's file sink makes a
 * write syscall per call when stdout is a file or a pipe (strace: one per access line, ~12 µs of a
 * request under load), so batching must happen before it. Warnings and errors are flushed at once by
 * the logger; a kill -9 can lose the last `flushEveryMs` of info lines. Callers flush before exiting.
 */
export function fileSink(
  file: { writer(): { write(s: string): unknown; flush(): unknown } },
  flushEveryMs = 100,
  flushBytes = 64 * 1024,
): LogSink {
  const writer = file.writer()
  let lines: string[] = []
  let pending = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (lines.length === 0) return
    const chunk = lines.join('')
    lines = []
    pending = 0
    writer.write(chunk)
    writer.flush()
  }
  return {
    write(line) {
      lines.push(line + '\n')
      pending += line.length + 1
      if (pending >= flushBytes) flush()
      else if (timer === undefined) {
        timer = setTimeout(flush, flushEveryMs)
        timer.unref?.()
      }
    },
    flush,
  }
}

/** Keeps lines in memory; for tests and for commands that want to inspect what was logged. */
export function memorySink(): LogSink & { lines: string[]; records(): LogFields[] } {
  const lines: string[] = []
  return {
    lines,
    write: (line) => void lines.push(line),
    flush: () => {},
    records: () => lines.map((l) => JSON.parse(l) as LogFields),
  }
}
