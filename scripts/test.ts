// `bun run test`: the whole suite on the embedded SQLite engine, then again on PostgreSQL + Redis when
// their programs are installed (Debian packages `postgresql` and `redis-server`; the tests start a
// throwaway server of each on loopback), and says plainly when it skipped that run. Arguments go to
// both runs (`bun run test test/modules/tickets`). Ends with the totals of both runs, in bun test's words.
import { existsSync } from 'node:fs'

const args = process.argv.slice(2)
const postgres = ['17', '16', '15'].some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
const redis = Bun.which('redis-server') !== null

interface Run {
  engine: string
  pass: number
  fail: number
  exitCode: number
}

async function run(engine: 'sqlite' | 'postgres'): Promise<Run> {
  console.log(`\n== bun test on ${engine === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL + Redis'}\n`)
  const child = Bun.spawn(['bun', 'test', ...args], {
    env: { ...process.env, SWITCHBOARD_TEST_ENGINE: engine },
    stdout: 'inherit',
    stderr: 'pipe',
  })
  // bun test writes its report to stderr: pass it through, and keep the totals.
  let tail = ''
  const decoder = new TextDecoder()
  for await (const chunk of child.stderr) {
    process.stderr.write(chunk)
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4000)
  }
  const exitCode = await child.exited
  const count = (word: string) => Number(tail.match(new RegExp(`^ *(\\d+) ${word}$`, 'm'))?.[1] ?? 0)
  return { engine, pass: count('pass'), fail: count('fail'), exitCode }
}

const runs = [await run('sqlite')]
if (postgres && redis) runs.push(await run('postgres'))
else
  console.log(
    `\nSKIPPED the PostgreSQL + Redis run: ${[postgres ? '' : 'postgresql', redis ? '' : 'redis-server'].filter(Boolean).join(' and ')} not installed (Debian packages postgresql, redis-server).`,
  )

console.log('')
for (const r of runs)
  console.log(`${r.engine}: ${r.pass} pass, ${r.fail} fail${r.exitCode !== 0 && r.fail === 0 ? ` (exit ${r.exitCode})` : ''}`)
const pass = runs.reduce((n, r) => n + r.pass, 0)
const fail = runs.reduce((n, r) => n + r.fail, 0)
// The totals last, as bun test prints them (CI reads these two lines).
console.log(` ${pass} pass\n ${fail} fail`)
process.exit(runs.some((r) => r.exitCode !== 0) ? 1 : 0)
