// Deep bodies (issue 27 item 1): how long the compiled binary takes to refuse a 120 KB sign-in body nested
// 20,000 deep and a 240 KB one nested 40,000 deep (before the fix: 31-67 s and a 500), against an ordinary
// refused sign-in (a number for an e-mail); and /health's answer time while four deep bodies are in flight.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { waitFor } from './load.ts'

export interface DeepBodyBench {
  /** Median ms of each request, sequentially. */
  rows: { what: string; bytes: number; status: number; medianMs: number }[]
  healthWhileDeepMs: number
}

const nested = (depth: number) => `{"email":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)},"password":"x"}`

export async function benchDeepBody(rounds = 15): Promise<DeepBodyBench> {
  const dir = tempDir('switchboard-bench-')
  const binary = join(dir, 'switchboard')
  await buildBinary(binary)
  const port = freePort()
  const server = Bun.spawn([binary, 'serve'], {
    env: {
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      RATE_LIMITS_ENABLED: 'false',
      ADMIN_EMAIL: 'bench@bench.example',
      ADMIN_PASSWORD: 'bench-password-123',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  try {
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/health`)
    const login = async (body: string) => {
      const started = performance.now()
      const response = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      await response.arrayBuffer()
      return { status: response.status, ms: performance.now() - started }
    }
    const cases = [
      { what: 'sign-in, e-mail a number (ordinary 400)', body: '{"email":1,"password":"x"}' },
      { what: 'sign-in, e-mail nested 20,000 deep', body: nested(20_000) },
      { what: 'sign-in, e-mail nested 40,000 deep', body: nested(40_000) },
    ]
    const rows: DeepBodyBench['rows'] = []
    for (const { what, body } of cases) {
      const samples: { status: number; ms: number }[] = []
      for (let i = 0; i < rounds; i++) samples.push(await login(body))
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
      rows.push({ what, bytes: body.length, status: samples[0]!.status, medianMs: sorted[Math.floor(sorted.length / 2)]! })
    }
    const inFlight = [1, 2, 3, 4].map((i) => login(nested(i % 2 === 0 ? 40_000 : 20_000)))
    const started = performance.now()
    await (await fetch(`${base}/health`)).arrayBuffer()
    const healthWhileDeepMs = performance.now() - started
    await Promise.all(inFlight)
    return { rows, healthWhileDeepMs }
  } finally {
    server.kill()
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printDeepBodyBench({ rows, healthWhileDeepMs }: DeepBodyBench): void {
  process.stdout.write('  | request | bytes | status | median ms |\n  |---|---|---|---|\n')
  for (const row of rows)
    process.stdout.write(`  | ${row.what} | ${row.bytes.toLocaleString('en')} | ${row.status} | ${row.medianMs.toFixed(1)} |\n`)
  const worst = Math.max(...rows.slice(1).map((row) => row.medianMs))
  process.stdout.write(
    `  deep bodies answered in ${worst.toFixed(1)} ms at most (target < 100 ms); /health while four are in flight: ${healthWhileDeepMs.toFixed(1)} ms\n`,
  )
}

if (import.meta.main) printDeepBodyBench(await benchDeepBody())
