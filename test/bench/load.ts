// Load measurement for benchmarks: wrk against a URL where it is installed (one thread, so it takes
// one core at most: autocannon runs in JavaScript and takes a whole core of this 2-core machine,
// which squeezes every ratio towards 1), autocannon otherwise; reduced to the figures we print.
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface LoadResult {
  label: string
  rps: number
  /** Milliseconds. */
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** Requests answered during the measurement. */
  requests: number
}

/** One thing to load: GET unless a method (and body) is given. */
export interface Target {
  label: string
  url: string
  headers?: Record<string, string>
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: string
}

export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
// This machine is shared and noisy (±15% between identical runs): targets are measured in
// alternation over several rounds and each is reported by its median round.
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

const WRK = Bun.which('wrk')
/** The load generator in use, for the benchmarks' headers. */
export const GENERATOR = WRK ? `wrk (${WRK}, 1 thread)` : 'autocannon (wrk not installed)'

/** wrk's Lua script for a target: method, body and headers (a string in long brackets, so nothing needs escaping). */
function wrkScript(target: Target): string {
  const long = (s: string) => {
    let level = 0
    while (s.includes(`]${'='.repeat(level)}]`)) level++
    const eq = '='.repeat(level)
    // A newline right after the opening bracket would be dropped by Lua: the string never starts with one here.
    return `[${eq}[${s.startsWith('\n') ? '\n' : ''}${s}]${eq}]`
  }
  const lines = [`wrk.method = ${long(target.method ?? 'GET')}`]
  if (target.body !== undefined) lines.push(`wrk.body = ${long(target.body)}`)
  for (const [name, value] of Object.entries(target.headers ?? {})) lines.push(`wrk.headers[ ${long(name)} ] = ${long(value)}`)
  return lines.join('\n') + '\n'
}

/** wrk prints durations as 812.00us, 1.38ms, 2.01s, 1.50m. */
function wrkMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(value.trim())
  if (!match) throw new Error(`wrk: cannot read the duration ${value}`)
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'us' | 'ms' | 's' | 'm' | 'h']
  return Math.round(Number(match[1]) * factor * 100) / 100
}

async function runWrk(target: Target, durationS: number): Promise<Omit<LoadResult, 'label'>> {
  const script = join(tmpdir(), `switchboard-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`)
  writeFileSync(script, wrkScript(target))
  try {
    const child = Bun.spawn([WRK!, '-t1', `-c${CONNECTIONS}`, `-d${durationS}s`, '--latency', '-s', script, target.url], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    // A script error does not always make wrk fail: anything on stderr is one.
    if (code !== 0 || err.trim()) throw new Error(`wrk exited with ${code}: ${err}${out}`)
    const grab = (pattern: RegExp) => pattern.exec(out)?.[1]
    const rps = grab(/^Requests\/sec:\s+([\d.]+)/m)
    const p50 = grab(/^\s+50%\s+(\S+)/m)
    const p99 = grab(/^\s+99%\s+(\S+)/m)
    if (!rps || !p50 || !p99) throw new Error(`wrk: unexpected output\n${out}`)
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
    return {
      rps: Math.round(Number(rps)),
      p50: wrkMs(p50),
      p99: wrkMs(p99),
      errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
      non2xx: Number(grab(/Non-2xx or 3xx responses:\s+(\d+)/) ?? 0),
      requests: Number(grab(/^\s+(\d+) requests in /m) ?? 0),
    }
  } finally {
    rmSync(script, { force: true })
  }
}

async function runAutocannon(target: Target, durationS: number): Promise<Omit<LoadResult, 'label'>> {
  const { default: autocannon } = await import('autocannon')
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: durationS,
    headers: target.headers ?? {},
    // autocannon refuses an undefined method.
    method: target.method ?? 'GET',
    ...(target.body === undefined ? {} : { body: target.body }),
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  }
}

export async function measure(
  label: string,
  url: string,
  headers: Record<string, string> = {},
  options: Pick<Target, 'method' | 'body'> = {},
): Promise<LoadResult> {
  const target: Target = { label, url, headers, ...options }
  const run = WRK ? runWrk : runAutocannon
  // A short warm-up so JIT and connection set-up do not count.
  await run(target, 1)
  return { label, ...(await run(target, DURATION_S)) }
}

/**
 * Measures each target once per round, alternating, and returns each target's median round. Odd rounds
 * go in reverse order, so a drift of the machine over the run does not favour the targets measured first.
 * `between` runs after each measurement (to let a server finish work the load left behind).
 */
export async function compare(
  targets: Target[],
  rounds_ = ROUNDS,
  between?: (result: LoadResult, index: number) => Promise<void>,
): Promise<LoadResult[]> {
  const rounds: LoadResult[][] = targets.map(() => [])
  for (let round = 0; round < rounds_; round++) {
    const order = [...targets.keys()]
    if (round % 2 === 1) order.reverse()
    for (const i of order) {
      const t = targets[i]!
      const result = await measure(t.label, t.url, t.headers, { method: t.method, body: t.body })
      rounds[i]!.push(result)
      await between?.(result, i)
    }
  }
  return rounds.map((results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!)
}

export function printTable(rows: LoadResult[]): void {
  const lines = rows.map(
    (r) =>
      `  ${r.label.padEnd(44)}${String(r.rps).padStart(9)} req/s   p50 ${String(r.p50).padStart(5)} ms   p99 ${String(r.p99).padStart(5)} ms${r.errors || r.non2xx ? `   errors ${r.errors} non-2xx ${r.non2xx}` : ''}`,
  )
  process.stdout.write(lines.join('\n') + '\n')
}

/** Waits until `url` answers 200. */
export async function waitFor(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`)
    await Bun.sleep(50)
  }
}
