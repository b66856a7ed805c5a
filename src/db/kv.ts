// system_kv: small installation-wide values (probes, generated secrets, first-start marker) keyed by
// name, and the three statements everything that keeps such a value needs.
import type { Queries, Tx } from './database.ts'

/** A row of system_kv (Kysely). */
export interface SystemKvTable {
  key: string
  value: string
  updated_at: number
}

declare module './database.ts' {
  interface Tables {
    system_kv: SystemKvTable
  }
}

/** The value under `key`, if any. */
export async function getKv(db: Queries, key: string): Promise<string | undefined> {
  return (await db.raw.get<{ value: string }>('SELECT value FROM system_kv WHERE key = ?', [key]))?.value
}

/** Sets `key` to `value`, replacing what was there. */
export async function putKv(tx: Tx, key: string, value: string, now: number): Promise<void> {
  await tx.raw.run(
    'INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    [key, value, now],
  )
}

/** Sets `key` unless it is set already; the value in force afterwards (another process may have won). */
export async function putKvIfAbsent(tx: Tx, key: string, value: string, now: number): Promise<string> {
  await tx.raw.run('INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING', [key, value, now])
  return (await getKv(tx, key))!
}
