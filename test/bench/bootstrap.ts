// What the benchmarks on a seeded database share: the compiled binary, built into `dir`, started once on
// a new DATA_DIR so that it creates the organization and its admin, then stopped for seeding straight
// into the file; and the organization's limits raised afterwards, so that nothing under load is refused.
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { freePort } from '../helpers/process.ts'
import { waitFor } from './load.ts'

export interface Bootstrapped {
  binary: string
  dataDir: string
  dbPath: string
  orgId: string
  admin: { email: string; password: string }
  /** The environment every start of the binary gets (plus its PORT). */
  env: Record<string, string>
}

export async function bootstrapBench(dir: string): Promise<Bootstrapped> {
  const binary = join(dir, 'switchboard')
  await buildBinary(binary)
  const dataDir = join(dir, 'data')
  const admin = { email: 'bench@bench.example', password: 'bench-password-123' }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  }
  const port = freePort()
  const first = Bun.spawn([binary, 'serve'], { env: { ...env, PORT: String(port) }, stdout: 'ignore', stderr: 'inherit' })
  await waitFor(`http://127.0.0.1:${port}/health`)
  first.kill('SIGTERM')
  await first.exited
  const dbPath = join(dataDir, 'switchboard.db')
  const db = new Database(dbPath)
  const orgId = db.query<{ id: string }, []>('SELECT id FROM organizations').get()!.id
  db.close()
  return { binary, dataDir, dbPath, orgId, admin, env }
}

/** `org set-limits` far above what a benchmark sends. */
export function raiseLimits({ binary, env, orgId }: Bootstrapped): void {
  const raised = Bun.spawnSync([binary, 'org', 'set-limits', orgId, '--per-minute', '1000000', '--per-day', '100000000'], {
    env,
    stdout: 'ignore',
    stderr: 'inherit',
  })
  if (raised.exitCode !== 0) throw new Error('org set-limits failed')
}
