// `bun run test`: the whole suite on the embedded SQLite engine and on PostgreSQL + Redis (+ S3) when their
// programs are installed (Debian packages `postgresql` and `redis-server`; the tests start a throwaway server
// of each on loopback), and says plainly when it skipped that run. The two runs go at the same time: each
// spends most of its time waiting (servers starting, real clocks, round trips), not computing, so together
// they take little longer than the longer one. The SQLite run's report is shown as it comes, the
// PostgreSQL run's once the SQLite run has ended (never interleaved). `--sequential` runs them one after
// the other. Other arguments go to both runs (`bun run test test/modules/tickets`). Ends with the totals of
// both runs, in bun test's words. Each test may take 20 s (bun's default is 5 s).
import { existsSync } from 'node:fs'

const sequential = process.argv.includes('--sequential')
const args = process.argv.slice(2).filter((arg) => arg !== '--sequential')
const postgres = ['17', '16', '15'].some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
const redis = Bun.which('redis-server') !== null

type Engine = 'sqlite' | 'postgres'

interface Run {
  engine: Engine
  pass: number
  fail: number
  exitCode: number
}

const TITLE: Record<Engine, string> = { sqlite: 'SQLite (embedded)', postgres: 'PostgreSQL + Redis' }

type Write = (chunk: Uint8Array | string, to: 'stdout' | 'stderr') => void

/** Runs `bun test` on one engine; its output goes to `write` as it arrives. */
async function run(engine: Engine, write: Write): Promise<Run> {
  write(`\n== bun test on ${TITLE[engine]}\n\n`, 'stdout')
  // 20 s per test, not bun's 5 s: with both runs on two cores, a test starting a few processes can take
  // longer than 5 s, and failed so now and then; a hang still fails within 20 s.
  const child = Bun.spawn(['bun', 'test', '--timeout', '20000', ...args], {
    env: { ...process.env, SWITCHBOARD_TEST_ENGINE: engine },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  // bun test writes its report to stderr: pass it through, and keep the totals.
  let tail = ''
  const decoder = new TextDecoder()
  const pump = async (stream: ReadableStream<Uint8Array>, to: 'stdout' | 'stderr') => {
    for await (const chunk of stream) {
      write(chunk, to)
      if (to === 'stderr') tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4000)
    }
  }
  await Promise.all([pump(child.stdout, 'stdout'), pump(child.stderr, 'stderr')])
  const exitCode = await child.exited
  const count = (word: string) => Number(tail.match(new RegExp(`^ *(\\d+) ${word}$`, 'm'))?.[1] ?? 0)
  return { engine, pass: count('pass'), fail: count('fail'), exitCode }
}

const live: Write = (chunk, to) => void process[to].write(chunk)
const runs: Run[] = []
if (postgres && redis && !sequential) {
  // The PostgreSQL run's output is held until the SQLite run's is out, then shown as it comes.
  const held: Array<[Uint8Array | string, 'stdout' | 'stderr']> = []
  let holding = true
  const second = run('postgres', (chunk, to) => (holding ? held.push([chunk, to]) : live(chunk, to)))
  runs.push(await run('sqlite', live))
  for (const [chunk, to] of held.splice(0)) live(chunk, to)
  holding = false
  runs.push(await second)
} else {
  runs.push(await run('sqlite', live))
  if (postgres && redis) runs.push(await run('postgres', live))
  else
    console.log(
      `\nSKIPPED the PostgreSQL + Redis run: ${[postgres ? '' : 'postgresql', redis ? '' : 'redis-server'].filter(Boolean).join(' and ')} not installed (Debian packages postgresql, redis-server).`,
    )
}

console.log('')
for (const r of runs)
  console.log(`${r.engine}: ${r.pass} pass, ${r.fail} fail${r.exitCode !== 0 && r.fail === 0 ? ` (exit ${r.exitCode})` : ''}`)
const pass = runs.reduce((n, r) => n + r.pass, 0)
const fail = runs.reduce((n, r) => n + r.fail, 0)
// The totals last, as bun test prints them (CI reads these two lines).
console.log(` ${pass} pass\n ${fail} fail`)
process.exit(runs.some((r) => r.exitCode !== 0) ? 1 : 0)
