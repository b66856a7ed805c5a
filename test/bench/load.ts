// Load measurement for benchmarks: autocannon against a URL, reduced to the figures we print.
import autocannon from 'autocannon'

export interface LoadResult {
  label: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
}

export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
// This machine is shared and noisy (±15% between identical runs): targets are measured in
// alternation over several rounds and each is reported by its median round.
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

export async function measure(label: string, url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  // A short warm-up so JIT and connection set-up do not count.
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers })
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers })
  return {
    label,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}

/**
 * Measures each target once per round, alternating, and returns each target's median round. Odd rounds
 * go in reverse order, so a drift of the machine over the run does not favour the targets measured first.
 */
export async function compare(targets: { label: string; url: string; headers?: Record<string, string> }[], rounds_ = ROUNDS): Promise<LoadResult[]> {
  const rounds: LoadResult[][] = targets.map(() => [])
  for (let round = 0; round < rounds_; round++) {
    const order = [...targets.keys()]
    if (round % 2 === 1) order.reverse()
    for (const i of order) rounds[i]!.push(await measure(targets[i]!.label, targets[i]!.url, targets[i]!.headers))
  }
  return rounds.map((results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!)
}

export function printTable(rows: LoadResult[]): void {
  const lines = rows.map((r) => `  ${r.label.padEnd(44)}${String(r.rps).padStart(9)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms${r.errors || r.non2xx ? `   errors ${r.errors} non-2xx ${r.non2xx}` : ''}`)
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
