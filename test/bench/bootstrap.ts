// What the benchmarks on a seeded database share: the compiled binary, built into `dir`, started once on
// a new DATA_DIR so that it creates the organization and its admin, then stopped for seeding straight
// into the file; and the organization's limits raised afterwards, so that nothing under load is refused.
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { encodePageToken, queryDigest } from '../../src/lib/page-token.ts'
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

/** Headers that authenticate as the bootstrapped admin on the server at `base`. */
export async function signIn(base: string, admin: Bootstrapped['admin']): Promise<{ authorization: string }> {
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  })
  return { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` }
}

/**
 * A page token of `table`'s list (created_at:desc, no filters) `depth` rows deep, made with the
 * installation's own key (paging there would take thousands of requests), and the time it starts after.
 */
export function deepPageToken(
  dbPath: string,
  orgId: string,
  table: 'tickets' | 'contacts',
  depth: number,
): { token: string; createdAt: number } {
  const read = new Database(dbPath, { readonly: true })
  try {
    const key = new Uint8Array(
      Buffer.from(read.query<{ value: string }, []>("SELECT value FROM system_kv WHERE key = 'page_token_key'").get()!.value, 'base64'),
    )
    const at = read
      .query<{ created_at: number; id: string }, [string, number]>(
        `SELECT created_at, id FROM ${table} WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`,
      )
      .get(orgId, depth)!
    const token = encodePageToken(
      key,
      { organizationId: orgId, query: queryDigest(table, {}, 'created_at:desc') },
      { after: [at.created_at, at.id] },
      Math.floor(Date.now() / 1000) + 3600,
    )
    return { token, createdAt: at.created_at }
  } finally {
    read.close()
  }
}

/**
 * S3 settings for the cluster benchmarks' instances, which several instances must have (config.ts) but
 * which these benchmarks never use (no upload): nothing listens at the endpoint.
 */
export const UNUSED_S3 = {
  S3_BUCKET: 'unused',
  S3_ENDPOINT: 'http://127.0.0.1:9',
  S3_ACCESS_KEY_ID: 'unused',
  S3_SECRET_ACCESS_KEY: 'unused',
} as const
