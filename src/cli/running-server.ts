// DATA_DIR/serve.json: where the running server really listens (pid, host, port), written by `serve`
// once it is bound and removed when it stops cleanly. `healthcheck` reads it, so a server started
// with `--port 9000` is checked on 9000 even when PORT says otherwise (a container's HEALTHCHECK
// runs with the image's environment, not with serve's flags).
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const RUNNING_SERVER_FILE = 'serve.json'

export interface RunningServerInfo {
  pid: number
  host: string
  port: number
  started_at: string
}

export function runningServerPath(dataDir: string): string {
  return join(dataDir, RUNNING_SERVER_FILE)
}

/** Written under a temporary name and renamed, so a reader never sees half a file; mode 0600. */
export function writeRunningServer(dataDir: string, info: RunningServerInfo): void {
  const path = runningServerPath(dataDir)
  const partial = `${path}.${process.pid}.tmp`
  writeFileSync(partial, JSON.stringify(info) + '\n', { mode: 0o600 })
  renameSync(partial, path)
}

/** Removes the file if it is still this process's (a newer server may have replaced it). */
export function removeRunningServer(dataDir: string, pid = process.pid): void {
  const path = runningServerPath(dataDir)
  try {
    if (readRunningServer(dataDir)?.pid === pid) unlinkSync(path)
  } catch {
    // Already gone: nothing to do.
  }
}

/** The file's contents when it is well formed and its process is alive; otherwise undefined (no server, or a crashed one). */
export function readRunningServer(dataDir: string): RunningServerInfo | undefined {
  const path = runningServerPath(dataDir)
  if (!existsSync(path)) return undefined
  let info: Partial<RunningServerInfo>
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunningServerInfo>
  } catch {
    return undefined
  }
  if (!Number.isSafeInteger(info.pid) || !Number.isInteger(info.port) || typeof info.host !== 'string') return undefined
  return isAlive(info.pid!) ? (info as RunningServerInfo) : undefined
}

function isAlive(pid: number): boolean {
  try {
    // Signal 0 checks that the process exists without touching it; EPERM means it exists as another user.
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
