// Builds the real app on a fresh, migrated SQLite file in its own temporary DATA_DIR, with a fake
// clock and captured logs; each test file gets its own, nothing is shared.
import { afterAll } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type SettingName } from '../../src/config.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { openRuntime } from '../../src/runtime.ts'
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

/**
 * The real app on a fresh, migrated database in its own DATA_DIR. Pass `dataDir` to open an existing
 * one (a restart); `keepData` leaves it on disk when closed.
 */
export async function makeTestApp(settings: Partial<Record<SettingName, string>> = {}, options: { dataDir?: string; keepData?: boolean; clock?: FakeClock; webhookCa?: string } = {}) {
  const dataDir = options.dataDir ?? tempDir()
  // Rate limits are off unless a test turns them on: most tests make more requests than a plan allows.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', RATE_LIMITS_ENABLED: 'false', ...settings })
  const logs = memorySink()
  const log = createLogger({ level: config.logLevel, sink: logs })
  const clock = options.clock ?? new FakeClock()
  const runtime = await openRuntime(config, { log, clock, webhookCa: options.webhookCa })
  const { app, deps } = runtime
  return {
    app,
    deps,
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
