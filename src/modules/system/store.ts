// The system module's SQL: the readiness probe's one-row write in system_kv.
import type { Database } from '../../db/database.ts'
import { putKv } from '../../db/kv.ts'

const READY_PROBE_KEY = 'ready_probe'

/** One single-row upsert in its own transaction: the database took a write, or this throws why not. */
export async function writeReadyProbe(db: Database, now: number): Promise<void> {
  await db.write('ready probe', (tx) => putKv(tx, READY_PROBE_KEY, String(now), now))
}
