// Throwaway PostgreSQL, Redis and S3 (s3rver) servers for tests and benchmarks: started from the Debian binaries on
// loopback in a temporary directory (as the unprivileged `nobody` when running as root: PostgreSQL
// refuses root), and removed when stopped. `available()` says whether the programs are installed.
import { chownSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'

const PG_BIN = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((dir) =>
  existsSync(join(dir, 'initdb')),
)
const REDIS = Bun.which('redis-server')

export const postgresAvailable = PG_BIN !== undefined
export const redisAvailable = REDIS !== null

const asRoot = process.getuid?.() === 0
const NOBODY = 65534

function run(command: string[], cwd?: string): void {
  const argv = asRoot ? ['runuser', '-u', 'nobody', '--', ...command] : command
  const result = Bun.spawnSync(argv, { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${command[0]} failed: ${result.stderr.toString().trim() || result.stdout.toString().trim()}`)
}

/**
 * Removes a stopped server's folder in a detached `rm -rf` that outlives the test process: a PostgreSQL
 * cluster holding a whole run's databases takes long to delete, and the run need not wait for it.
 */
function removeLater(dir: string): void {
  Bun.spawn(['rm', '-rf', dir], { stdio: ['ignore', 'ignore', 'ignore'] }).unref()
}

export interface RunningService {
  url: string
  stop(): Promise<void>
  /** Stops the server but keeps its port and files (PostgreSQL keeps its data; Redis has none). */
  pause(): Promise<void>
  /** Starts it again on the same port, and waits until it answers. */
  resume(): Promise<void>
}

/** A fresh PostgreSQL cluster with a database `switchboard`; `url` is its postgres:// address. */
export async function startPostgres(): Promise<RunningService> {
  if (!PG_BIN) throw new Error('PostgreSQL is not installed (Debian package postgresql)')
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-pg-'))
  if (asRoot) chownSync(dir, NOBODY, NOBODY)
  const data = join(dir, 'data')
  const port = freePort()
  run([join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
  // fsync off: a test cluster that dies is thrown away anyway. 1000 connections: each app's pool holds 10
  // (Bun.SQL fills it even for one query after another), and a test file may keep 20 apps open at once.
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000`
  const start = () => run([join(PG_BIN!, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  start()
  const admin = new Bun.SQL(`postgres://postgres@127.0.0.1:${port}/postgres`)
  await admin.unsafe('CREATE DATABASE switchboard')
  await admin.close()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/switchboard`,
    async pause() {
      run([join(PG_BIN!, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop'])
    },
    async resume() {
      start()
    },
    async stop() {
      try {
        run([join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'])
      } finally {
        removeLater(dir)
      }
    },
  }
}

/** A fresh Redis on loopback, no persistence. */
export async function startRedis(): Promise<RunningService & { readonly pid: number | undefined }> {
  if (!REDIS) throw new Error('Redis is not installed (Debian package redis-server)')
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-redis-'))
  const port = freePort()
  const url = `redis://127.0.0.1:${port}`
  const spawn = async () => {
    const child = Bun.spawn([REDIS!, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdout: 'ignore',
      stderr: 'pipe',
    })
    for (const deadline = Date.now() + 10_000; ; ) {
      try {
        const client = new Bun.RedisClient(url)
        await client.send('PING', [])
        client.close()
        return child
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`redis-server did not start: ${(error as Error).message}`)
        await Bun.sleep(50)
      }
    }
  }
  let child: Bun.Subprocess | undefined = await spawn()
  const kill = async () => {
    child?.kill('SIGKILL')
    await child?.exited
    child = undefined
  }
  return {
    url,
    /** The running server's process (to freeze it with SIGSTOP); undefined while paused. */
    get pid() {
      return child?.pid
    },
    async stop() {
      await kill()
      removeLater(dir)
    },
    pause: kill,
    async resume() {
      child ??= await spawn()
    },
  }
}

/** The S3 settings of a throwaway S3-compatible server (s3rver, from npm) on loopback, objects on a temporary disk. */
export interface S3Service {
  stop(): Promise<void>
  readonly settings: { S3_BUCKET: string; S3_ENDPOINT: string; S3_ACCESS_KEY_ID: string; S3_SECRET_ACCESS_KEY: string }
}

export async function startS3(): Promise<S3Service> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-s3-'))
  const port = freePort()
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 's3-server.ts'), String(port), dir, 'switchboard'], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = child.stdout.getReader()
  const first = await Promise.race([reader.read(), Bun.sleep(15_000).then(() => undefined)])
  reader.releaseLock()
  if (!first || first.done || !new TextDecoder().decode(first.value).includes('ready')) {
    child.kill('SIGKILL')
    throw new Error('s3rver did not start within 15 s')
  }
  // s3rver's own credentials: it checks signatures against them.
  const settings = {
    S3_BUCKET: 'switchboard',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  }
  return {
    settings,
    async stop() {
      child.kill('SIGKILL')
      await child.exited
      removeLater(dir)
    },
  }
}
