// Builds the real app on a fresh, migrated SQLite file in its own temporary DATA_DIR, with a fake
// clock and captured logs; each test file gets its own, nothing is shared.
import { afterAll } from 'bun:test'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type SettingName } from '../../src/config.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { openRuntime } from '../../src/runtime.ts'
import { removeAtEnd } from './cleanup.ts'
import { databaseOf, postgresServer, redisServer, rememberDatabase, s3Server, TEST_ENGINE } from './engine.ts'
import { FakeClock } from './clock.ts'

export function tempDir(prefix = 'switchboard-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** Returns a maker of temporary directories that are all removed after the file's tests. */
export function tempDirs(prefix?: string): () => string {
  const made: string[] = []
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = tempDir(prefix)
    made.push(dir)
    return dir
  }
}

// One migrated database with its master key and signing key per test process, copied into each new
// app's DATA_DIR (as PocketBase clones its test data directory) — on PostgreSQL, a template database
// each app's database is created from: migrating and generating an RSA key for every app cost more
// than most tests. Made at clock 0 so its key signs at any test's time.
let template: Promise<string> | undefined

function templateDataDir(): Promise<string> {
  template ??= (async () => {
    const dir = tempDir('switchboard-template-')
    if (TEST_ENGINE === 'postgres') {
      const server = await postgresServer()
      await server.admin.unsafe('CREATE DATABASE template_app')
      rememberDatabase(dir, 'template_app')
    }
    const engine = TEST_ENGINE === 'postgres' ? { DATABASE_URL: (await postgresServer()).url('template_app') } : {}
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error', ...engine })
    const runtime = await openRuntime(config, { log: createLogger({ level: 'error', sink: memorySink() }), clock: new FakeClock(0) })
    await runtime.close()
    removeAtEnd(dir)
    return dir
  })()
  return template
}

async function freshDataDir(): Promise<string> {
  const dir = tempDir()
  const from = await templateDataDir()
  // The database was checkpointed and closed: its one file holds everything (no -wal to copy).
  for (const name of readdirSync(from)) copyFileSync(`${from}/${name}`, `${dir}/${name}`)
  return dir
}

/**
 * The real app on a fresh, migrated database in its own DATA_DIR. Pass `dataDir` to open an existing
 * one (a restart); `keepData` leaves it on disk when closed.
 */
export async function makeTestApp(
  settings: Partial<Record<SettingName, string>> = {},
  options: { dataDir?: string; keepData?: boolean; clock?: FakeClock; webhookCa?: string } = {},
) {
  // A test that brings its own master key or data directory starts from nothing, as production does.
  const dataDir = options.dataDir ?? (settings.MASTER_KEY === undefined ? await freshDataDir() : tempDir())
  // On PostgreSQL, with Redis and S3 too: the whole suite runs as one instance of a cluster would.
  const engine =
    TEST_ENGINE === 'postgres'
      ? {
          DATABASE_URL: await databaseOf(dataDir, options.dataDir === undefined && settings.MASTER_KEY === undefined),
          REDIS_URL: (await redisServer()).url,
          ...(await s3Server()).settings,
        }
      : {}
  // Rate limits are off unless a test turns them on: most tests make more requests than a plan allows.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', RATE_LIMITS_ENABLED: 'false', ...engine, ...settings })
  const logs = memorySink()
  const log = createLogger({ level: config.logLevel, sink: logs })
  const clock = options.clock ?? new FakeClock()
  const runtime = await openRuntime(config, { log, clock, webhookCa: options.webhookCa })
  const { app, context, webhooks } = runtime
  return {
    app,
    /** The app context the modules were given (database, clock, log, ports). */
    context,
    /** This app's webhook sender (started by tests that need it). */
    webhooks,
    config,
    clock,
    logs,
    dataDir,
    /** Sends a request through the whole app, as a client on the network would. */
    async request(path: string, init?: RequestInit): Promise<Response> {
      const response = await app.handle(new Request(`http://localhost${path}`, init))
      // Elysia writes the access log in a setImmediate after the response; let it run.
      await new Promise((resolve) => setImmediate(resolve))
      return response
    },
    async close(): Promise<void> {
      await runtime.close()
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T
}
