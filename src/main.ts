// Entry point of `bun src/main.ts` and of the compiled binary: runs the command line and exits with its code.
// First: it sets NODE_ENV before Elysia loads (import order is evaluation order).
import './production-mode.ts'
import { runCli } from './cli/index.ts'

// Everything this process creates (database, -wal and -shm, master key, lock and serve.json, backups)
// is its owner's alone: files 0600, directories 0700.
process.umask(0o077)

try {
  const code = await runCli(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  })
  process.exit(code)
} catch (error) {
  // Anything unexpected still ends with one readable line, not a stack trace.
  process.stderr.write(`switchboard: ${(error as Error).message ?? String(error)}\n`)
  process.exit(1)
}
