// The command line run in this test process, on a real DATA_DIR and database: what `run(sourceCommand(…))`
// does, without the second or so a new process costs per command (70 s for one file once). The process
// itself (exit codes through main.ts, umask, signals) is tested by starting it, in test/cli/cli.test.ts.
import { runCli } from '../../src/cli/index.ts'
import { engineEnv } from './engine.ts'
import { type Finished, ROOT } from './process.ts'

/** `switchboard …args` with only `env` (plus PATH) as its environment, as `run` gives a process. */
export async function runInProcess(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Finished> {
  let stdout = ''
  let stderr = ''
  const io = {
    env: { PATH: process.env.PATH ?? '', ...(await engineEnv(env)) },
    cwd,
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stderr += text),
  }
  try {
    return { code: await runCli(args, io), stdout, stderr }
  } catch (error) {
    // As main.ts: anything unexpected is one line and exit 1.
    return { code: 1, stdout, stderr: `${stderr}switchboard: ${(error as Error).message ?? String(error)}\n` }
  }
}
