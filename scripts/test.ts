// `bun run test`: the whole suite on the embedded SQLite engine, and every file that can touch a database
// (scripts/test-files.ts) again on PostgreSQL + Redis (+ S3) when their programs are installed (Debian packages `postgresql` and `redis-server`; the tests start a throwaway server
// of each on loopback), and says plainly when it skipped that run. The runs go at the same time, each
// engine's in two parts: the compiled binary's tests (test/binary, mostly waiting on real clocks) and
// the rest (mostly computing), so the waits overlap the work instead of adding to it. The first part's
// report is shown as it comes, each other one once those before it have ended (never interleaved).
// `--sequential` runs one part after the other. Other arguments go to each engine's run, unsplit
// (`bun run test test/modules/tickets`). Ends with the totals of all runs, in bun test's words. Each
// test may take 60 s (bun's default is 5 s).
import { existsSync } from 'node:fs'
import { touchesDatabase } from './test-files.ts'

const sequential = process.argv.includes('--sequential')
const args = process.argv.slice(2).filter((arg) => arg !== '--sequential')
const postgres = ['17', '16', '15'].some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
const redis = Bun.which('redis-server') !== null

type Engine = 'sqlite' | 'postgres'

interface Part {
  engine: Engine
  /** What the report's heading says of the files. */
  label: string
  /** The arguments naming its files (or the caller's). */
  files: string[]
}

interface Run {
  engine: Engine
  pass: number
  fail: number
  exitCode: number
}

const TITLE: Record<Engine, string> = { sqlite: 'SQLite (embedded)', postgres: 'PostgreSQL + Redis' }

type Write = (chunk: Uint8Array | string, to: 'stdout' | 'stderr') => void

/** Each engine's parts: the binary's tests and the rest, or what the caller named, in one. */
function partsOf(engine: Engine): Part[] {
  if (args.length > 0) return [{ engine, label: '', files: args }]
  // On PostgreSQL, only the files that can touch a database: the others test the same thing on either run.
  const rest = [...new Bun.Glob('test/**/*.test.ts').scanSync('.')]
    .filter((path) => !path.startsWith('test/binary/') && (engine === 'sqlite' || touchesDatabase('.', path)))
    .sort()
    .map((path) => `./${path}`)
  return [
    { engine, label: ' (all but test/binary)', files: rest },
    { engine, label: ' (test/binary)', files: ['./test/binary'] },
  ]
}

/** Runs `bun test` on one part; its output goes to `write` as it arrives. */
async function run(part: Part, write: Write): Promise<Run> {
  write(`\n== bun test on ${TITLE[part.engine]}${part.label}\n\n`, 'stdout')
  // 60 s per test, not bun's 5 s: with four runs sharing two cores, and the machine busy besides, a test
  // starting a few processes took longer than 20 s now and then; a hang still fails within a minute.
  const child = Bun.spawn(['bun', 'test', '--timeout', '60000', ...part.files], {
    env: { ...process.env, SWITCHBOARD_TEST_ENGINE: part.engine },
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
  return { engine: part.engine, pass: count('pass'), fail: count('fail'), exitCode }
}

const live: Write = (chunk, to) => void process[to].write(chunk)

/** All parts at once: the first one's output live, each later one's held until those before it are out. */
async function runTogether(parts: Part[]): Promise<Run[]> {
  let shownUpTo = 0
  const held: Array<Array<[Uint8Array | string, 'stdout' | 'stderr']>> = parts.map(() => [])
  const started = parts.map((part, i) => run(part, (chunk, to) => (i === shownUpTo ? live(chunk, to) : held[i]!.push([chunk, to]))))
  const runs: Run[] = []
  for (const [i, running] of started.entries()) {
    runs.push(await running)
    shownUpTo = i + 1
    if (shownUpTo < parts.length) for (const [chunk, to] of held[shownUpTo]!.splice(0)) live(chunk, to)
  }
  return runs
}

const engines: Engine[] = postgres && redis ? ['sqlite', 'postgres'] : ['sqlite']
const parts = engines.flatMap(partsOf)
let runs: Run[]
if (sequential) {
  runs = []
  for (const part of parts) runs.push(await run(part, live))
} else runs = await runTogether(parts)
if (!(postgres && redis))
  console.log(
    `\nSKIPPED the PostgreSQL + Redis run: ${[postgres ? '' : 'postgresql', redis ? '' : 'redis-server'].filter(Boolean).join(' and ')} not installed (Debian packages postgresql, redis-server).`,
  )

console.log('')
for (const engine of engines) {
  const mine = runs.filter((r) => r.engine === engine)
  const pass = mine.reduce((n, r) => n + r.pass, 0)
  const fail = mine.reduce((n, r) => n + r.fail, 0)
  const failedExit = mine.find((r) => r.exitCode !== 0 && r.fail === 0)
  console.log(`${engine}: ${pass} pass, ${fail} fail${failedExit ? ` (exit ${failedExit.exitCode})` : ''}`)
}
const pass = runs.reduce((n, r) => n + r.pass, 0)
const fail = runs.reduce((n, r) => n + r.fail, 0)
// The totals last, as bun test prints them (CI reads these two lines).
console.log(` ${pass} pass\n ${fail} fail`)
process.exit(runs.some((r) => r.exitCode !== 0) ? 1 : 0)
