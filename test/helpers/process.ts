// Runs Switchboard as a real child process (`bun src/main.ts …` or the compiled binary) and talks to it over loopback.
import { join } from 'node:path'
import { engineEnv } from './engine.ts'
import { freePort } from './free-port.ts'
import { ROOT } from './root.ts'

export { freePort, ROOT }
export const MAIN = join(ROOT, 'src/main.ts')

/** The command that starts `bun src/main.ts` with the bun running the tests. */
export function sourceCommand(...args: string[]): string[] {
  return [process.execPath, '--no-env-file', MAIN, ...args]
}

export interface Finished {
  code: number
  stdout: string
  stderr: string
}

/** Runs to completion; the environment is only what is given (plus PATH), never the tester's. */
export async function run(cmd: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Finished> {
  const child = Bun.spawn(cmd, { env: { PATH: process.env.PATH ?? '', ...(await engineEnv(env)) }, cwd, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

export interface RunningServer {
  url: string
  child: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  /** Sends a signal and resolves with the exit code and everything the process wrote. */
  stop(signal?: NodeJS.Signals): Promise<Finished>
}

/**
 * Starts a server process and waits until /health answers 200 (or fails after `timeoutMs`). It listens
 * on env.PORT (a free port if unset), or on `listenPort` when the command names its port by a flag.
 */
export async function startServer(
  cmd: string[],
  env: Record<string, string>,
  cwd = ROOT,
  timeoutMs = 60_000,
  listenPort?: number,
): Promise<RunningServer> {
  // A port found free can be taken before the child binds it (an outgoing connection of any process
  // gets one from the same range): with a port of our choosing, try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(cmd, env, cwd, timeoutMs, listenPort, env.PORT ?? String(freePort()))
    } catch (error) {
      if (env.PORT !== undefined || listenPort !== undefined || attempt >= 3 || !/Is port \d+ in use/.test(String(error))) throw error
    }
  }
}

async function startServerOn(
  cmd: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
  listenPort: number | undefined,
  port: string,
): Promise<RunningServer> {
  const child = Bun.spawn(cmd, {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...(await engineEnv(env)), PORT: port },
    cwd,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stdout = new Response(child.stdout).text()
  const stderr = new Response(child.stderr).text()
  const url = `http://127.0.0.1:${listenPort ?? port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${await stderr}${await stdout}`)
    try {
      if ((await fetch(`${url}/health`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not answer /health within ${timeoutMs} ms: ${await stderr}`)
    }
    await Bun.sleep(50)
  }
  return {
    url,
    child,
    async stop(signal = 'SIGTERM') {
      child.kill(signal)
      const code = await child.exited
      return { code, stdout: await stdout, stderr: await stderr }
    },
  }
}
