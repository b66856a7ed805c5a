// Runs the documentation's examples as a reader would: a page's `sh` blocks, one after another in one
// bash with `set -euo pipefail`, against a real server started from source on its own DATA_DIR, with
// http://localhost:8080 replaced by that server's address. Blocks that must not run use another fence
// language (```console, ```text).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './app.ts'
import { engineEnv } from './engine.ts'
import { MAIN, type RunningServer, sourceCommand, startServer } from './process.ts'
import { ROOT } from './root.ts'

/** The Super Admin's password the examples sign in with (`PASSWORD`, as the README's tour). */
export const DOCS_PASSWORD = 'tour-password-0123'

/** The `sh` blocks of a page (a path relative to the repository's root), in order. */
export function shBlocks(page: string): string[] {
  return [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
}

/** A server from source on a fresh DATA_DIR, its first start's Super Admin signing in with DOCS_PASSWORD. */
export async function startDocsServer(prefix: string): Promise<RunningServer & { dataDir: string; close(): Promise<void> }> {
  const dataDir = tempDir(prefix)
  const server = await startServer(sourceCommand('serve'), {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: DOCS_PASSWORD,
    LOG_LEVEL: 'warn',
  })
  return {
    ...server,
    dataDir,
    async close() {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export interface ShellRun {
  code: number
  stdout: string
  stderr: string
  /** stdout's lines, trimmed of the last newline. */
  lines: string[]
}

/**
 * Runs `script` in bash against `server`, in a temporary working directory (files the examples write
 * land there). The environment is PATH, PASSWORD and the server's DATA_DIR (with its database on
 * PostgreSQL), so that `switchboard …` commands act on the server's data. PATH starts with stand-ins
 * for what a reader has installed: `switchboard` (the command line, run from source) and `oathtool`
 * (Debian's TOTP tool, as an authenticator app: test/helpers/oathtool.ts).
 */
export async function runShell(script: string, server: { url: string; dataDir?: string }, timeoutMs = 150_000): Promise<ShellRun> {
  const work = tempDir('switchboard-docs-shell-')
  const bin = join(work, '.bin')
  const shim = (name: string, command: string) => {
    const file = join(bin, name)
    writeFileSync(file, `#!/bin/sh\nexec ${command} "$@"\n`)
    chmodSync(file, 0o755)
  }
  try {
    mkdirSync(bin)
    shim('switchboard', `'${process.execPath}' --no-env-file '${MAIN}'`)
    shim('oathtool', `'${process.execPath}' '${join(ROOT, 'test/helpers/oathtool.ts')}'`)
    const data = server.dataDir === undefined ? {} : await engineEnv({ DATA_DIR: server.dataDir })
    const child = Bun.spawn(['bash', '-c', `set -euo pipefail\n${script.replaceAll('http://localhost:8080', server.url)}`], {
      env: { ...data, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: work, PASSWORD: DOCS_PASSWORD },
      cwd: work,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    clearTimeout(timer)
    return { code, stdout, stderr, lines: stdout.trimEnd().split('\n') }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
