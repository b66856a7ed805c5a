// Entry point of `bun src/main.ts` and of the compiled binary: runs the command line and exits with its code.
import { runCli } from './cli/index.ts'

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
