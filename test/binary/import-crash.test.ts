// A CSV import killed with SIGKILL while it writes, on the compiled binary: after a restart not one
// contact or event of the file exists (the import is one transaction), and the same file then imports whole.
import { afterAll, describe, expect, test } from 'bun:test'
import { Database as SqliteFile } from 'bun:sqlite'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DataDirDb, openDataDirDb } from '../helpers/data-dir-db.ts'
import { freePort, type RunningServer, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-import-crash-')
// One port for both starts: the issuer of the tokens (PUBLIC_URL's default) names it.
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@import-crash.test',
  ADMIN_PASSWORD: 'import-crash-password',
  PORT: String(freePort()),
}
// Enough for the transaction to stay open a second or more on either engine, where the kill lands.
const ROWS = 5_000

let server: RunningServer | undefined
afterAll(() => server?.stop('SIGKILL'))

function file(): string {
  const lines = ['name,email,tags']
  for (let i = 0; i < ROWS; i++) lines.push(`Crash ${i},crash${i}@example.com,imported`)
  return lines.join('\r\n')
}

async function tokenOf(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
  })
  return ((await response.json()) as { access_token: string }).access_token
}

/**
 * Whether a write transaction has been open for a while: the import's (every other write of an idle
 * server is over in milliseconds). SQLite: another connection cannot take the write lock, three times
 * in a row over 300 ms; PostgreSQL: a transaction begun more than 300 ms ago is still running.
 */
async function importIsWriting(db: DataDirDb): Promise<boolean> {
  if (db.engine === 'postgres') {
    const open = await db.get<{ n: number }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND xact_start < now() - interval '300 milliseconds' AND pid <> pg_backend_pid()",
    )
    return Number(open?.n) > 0
  }
  const probe = new SqliteFile(join(env.DATA_DIR, 'switchboard.db'), { readwrite: true, create: false })
  try {
    probe.run('PRAGMA busy_timeout = 0')
    for (let i = 0; i < 3; i++) {
      try {
        probe.run('BEGIN IMMEDIATE')
        probe.run('ROLLBACK')
        return false
      } catch {
        await Bun.sleep(100)
      }
    }
    return true
  } finally {
    probe.close()
  }
}

const countOf = async (db: DataDirDb, sql: string) => Number((await db.get<{ n: number }>(sql))?.n)

describe('an import killed while it writes', () => {
  test('leaves nothing of the file; after a restart the same file imports whole', async () => {
    const binary = await compiledBinary()
    server = await startServer([binary], env, folder)
    const token = await tokenOf(server.url)
    const upload = (url: string) =>
      fetch(`${url}/api/v1/contacts/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: file(),
      })
    const cut = upload(server.url).then(
      (response) => `answered ${response.status}`,
      () => 'cut off',
    )
    const db = await openDataDirDb(env.DATA_DIR)
    try {
      let writing = false
      for (const deadline = Date.now() + 20_000; !writing && Date.now() < deadline; ) writing = await importIsWriting(db)
      // Without this the kill could land before or after the transaction, and the test would prove nothing.
      expect(writing).toBe(true)
      await server.stop('SIGKILL')
      expect(await cut).toBe('cut off')
      expect(await countOf(db, "SELECT count(*) AS n FROM contacts WHERE name LIKE 'Crash %'")).toBe(0)
      expect(await countOf(db, "SELECT count(*) AS n FROM events WHERE type = 'crm.contact.created'")).toBe(0)
      expect(await countOf(db, "SELECT count(*) AS n FROM audit_logs WHERE event = 'crm.contact.created'")).toBe(0)
    } finally {
      await db.close()
    }
    server = await startServer([binary], env, folder)
    const again = await upload(server.url)
    expect(again.status, await again.clone().text()).toBe(200)
    expect(((await again.json()) as { accepted_count: number }).accepted_count).toBe(ROWS)
  }, 90_000)
})
