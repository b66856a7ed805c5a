// Load for cluster.ts: a load is one target (load.ts's measure, CONNECTIONS connections) or one target per
// instance measured at the same moment by one wrk each, the connections split between them and the
// figures summed; loads are measured in alternating rounds and reported by their median, as load.ts does.
import { join } from 'node:path'
import { CONNECTIONS, measure, ROUNDS, type LoadResult, type Target } from './load.ts'

export interface Load {
  label: string
  /** One target: a single measurement; several: measured at once, CONNECTIONS split between them. */
  targets: Target[]
}

export interface Measured {
  /** The median round. */
  result: LoadResult
  rounds: LoadResult[]
}

/**
 * Each target of `load` in its own process at the same moment, their req/s, requests and errors summed;
 * latencies of the slower. Each gets `perTarget` connections (default: CONNECTIONS split between them).
 */
export async function measureAtOnce(load: Load, perTarget?: number): Promise<LoadResult> {
  const connections = String(perTarget ?? Math.max(1, Math.floor(CONNECTIONS / load.targets.length)))
  const children = load.targets.map((target) =>
    Bun.spawn([process.execPath, join(import.meta.dir, 'measure-child.ts')], {
      env: { ...process.env, BENCH_CONNECTIONS: connections, TARGET: JSON.stringify(target) },
      stdout: 'pipe',
      stderr: 'inherit',
    }),
  )
  const results = await Promise.all(
    children.map(async (child) => {
      const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
      if (code !== 0) throw new Error(`a load process exited with ${code}`)
      return JSON.parse(out) as LoadResult
    }),
  )
  const sum = (key: 'rps' | 'errors' | 'non2xx' | 'requests') => results.reduce((total, r) => total + r[key], 0)
  return {
    label: load.label,
    rps: sum('rps'),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    errors: sum('errors'),
    non2xx: sum('non2xx'),
    requests: sum('requests'),
  }
}

function measureLoad(load: Load): Promise<LoadResult> {
  if (load.targets.length > 1) return measureAtOnce(load)
  const [t] = load.targets
  return measure(load.label, t!.url, t!.headers, { method: t!.method, body: t!.body })
}

/** Each load once per round, odd rounds in reverse order (a drift of the machine favours none); each load's median round. */
export async function alternate(loads: Load[], rounds = ROUNDS): Promise<Measured[]> {
  const results: LoadResult[][] = loads.map(() => [])
  for (let round = 0; round < rounds; round++) {
    const order = [...loads.keys()]
    if (round % 2 === 1) order.reverse()
    for (const i of order) results[i]!.push(await measureLoad(loads[i]!))
  }
  return results.map((measured) => ({
    result: [...measured].sort((a, b) => a.rps - b.rps)[Math.floor(measured.length / 2)]!,
    rounds: measured,
  }))
}

/** `measured`'s ratio to `reference` in each round (measured close together): a paired figure beside the ratio of the medians. */
export function roundRatios(measured: Measured, reference: Measured): number[] {
  return measured.rounds.map((r, i) => r.rps / reference.rounds[i]!.rps)
}
