// Bench helpers for cluster.ts: compiled binaries started as named instances (own DATA_DIR, log to a file),
// the first start that creates the organization and its admin, CLI commands, and the seeded tickets of an
// SQLite file copied into PostgreSQL, so that both engines hold the very same rows.
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { freePort } from '../helpers/process.ts'
import { waitFor } from './load.ts'

export const ADMIN = { email: 'bench@bench.example', password: 'bench-password-123' }

export interface Instance {
  name: string
  base: string
  child: Bun.Subprocess
  stop(): Promise<void>
}

/** The DATA_DIR of the instance `name`: a later start under the same name finds the same data (and master key). */
export const dataDirOf = (dir: string, name: string) => join(dir, `data-${name}`)

/** `binary serve` as instance `name`; resolves once /health answers. */
export async function startInstance(binary: string, dir: string, name: string, env: Record<string, string>): Promise<Instance> {
  const port = freePort()
  const child = Bun.spawn([binary, 'serve'], {
    env: {
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
      PORT: String(port),
      DATA_DIR: dataDirOf(dir, name),
      INSTANCE_ID: name,
    },
    // The access log goes to a file, as under a process manager: draining a pipe here would slow the load generator.
    stdout: Bun.file(join(dir, `server-${name}.log`)),
    stderr: 'inherit',
  })
  const base = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${base}/health`, 60_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    name,
    base,
    child,
    async stop() {
      child.kill('SIGTERM')
      await child.exited
    },
  }
}

/** The first start of a deployment (organization, admin, keys), stopped at once so its data can be prepared. */
export async function firstStart(binary: string, dir: string, name: string, env: Record<string, string>): Promise<void> {
  await (await startInstance(binary, dir, name, env)).stop()
}

/** A `switchboard` CLI command with `env` (and the DATA_DIR of instance `name`); throws on failure. */
export function cli(binary: string, dir: string, name: string, env: Record<string, string>, args: string[]): void {
  const result = Bun.spawnSync([binary, ...args], { env: { ...env, DATA_DIR: dataDirOf(dir, name) }, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`switchboard ${args.join(' ')} failed: ${result.stderr.toString()}${result.stdout.toString()}`)
}

/** Limits raised so that nothing is refused, while they are still counted (as tickets.ts does). */
export function raiseLimits(binary: string, dir: string, name: string, env: Record<string, string>, orgId: string): void {
  cli(binary, dir, name, env, ['org', 'set-limits', orgId, '--per-minute', '1000000', '--per-day', '100000000'])
}

/** Signs the admin in on `base`; the Authorization header. */
export async function signIn(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  if (response.status !== 200) throw new Error(`login on ${base} answered ${response.status}`)
  return { authorization: `Bearer ${((await response.json()) as { access_token: string }).access_token}` }
}

/** The one organization of a fresh PostgreSQL deployment. */
export async function organizationOf(sql: InstanceType<typeof Bun.SQL>): Promise<string> {
  const [row] = (await sql`SELECT id FROM organizations`) as Array<{ id: string }>
  return row!.id
}

/** Every ticket of the SQLite file, ids and times included, into `orgId` on PostgreSQL; its counter and statistics after. */
export async function copyTickets(sqlitePath: string, sql: InstanceType<typeof Bun.SQL>, orgId: string): Promise<number> {
  const source = new Database(sqlitePath, { readonly: true })
  // 2,000 rows of 18 columns a statement: under PostgreSQL's 65,535 parameters.
  const page = source.query<Record<string, unknown> & { rowid: number }, [number]>(
    'SELECT rowid, * FROM tickets WHERE rowid > ? ORDER BY rowid LIMIT 2000',
  )
  let copied = 0
  try {
    for (let after = 0; ; ) {
      const rows = page.all(after)
      if (rows.length === 0) break
      after = rows.at(-1)!.rowid
      const values = rows.map(({ rowid: _, ...row }) => ({ ...row, organization_id: orgId }))
      await sql`INSERT INTO tickets ${sql(values)}`
      copied += rows.length
    }
  } finally {
    source.close()
  }
  await sql`INSERT INTO ticket_counters (organization_id, last_number) VALUES (${orgId}, ${copied})
    ON CONFLICT (organization_id) DO UPDATE SET last_number = excluded.last_number`
  await sql.unsafe('ANALYZE tickets')
  return copied
}
