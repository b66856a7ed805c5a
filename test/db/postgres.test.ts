// The server engine under the data layer, on a throwaway PostgreSQL: portable SQL runs as written,
// BIGINT comes back as numbers, write transactions serialize (across pools too), roll back whole, and
// run their after-commit effects only after a commit. Skipped, saying so, where PostgreSQL is missing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from '../../src/db/database.ts'
import { numbered, openPostgres, requireUtf8 } from '../../src/db/postgres.ts'
import { postgresAvailable, type RunningService, startPostgres } from '../helpers/services.ts'

declare module '../../src/db/database.ts' {
  interface Tables {
    pg_counters: { id: number; n: number; note: string; at: number }
  }
}

if (!postgresAvailable) process.stderr.write('test/db/postgres.test.ts: skipped, PostgreSQL is not installed (Debian package postgresql)\n')

describe.skipIf(!postgresAvailable)('PostgreSQL engine', () => {
  let server: RunningService
  let db: Database
  let second: Database
  beforeAll(async () => {
    server = await startPostgres()
    db = openPostgres(server.url)
    second = openPostgres(server.url)
    await db.write('schema', async (tx) => {
      await tx.raw.run('CREATE TABLE pg_counters (id bigint PRIMARY KEY, n bigint NOT NULL, note text NOT NULL, at bigint NOT NULL)')
      await tx.raw.run("INSERT INTO pg_counters (id, n, note, at) VALUES (1, 0, '', ?)", [1_767_225_600_000])
    })
  }, 60_000)
  afterAll(async () => {
    await db?.close()
    await second?.close()
    await server?.stop()
  })

  test('? placeholders become $n, but not inside string literals', () => {
    expect(numbered("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ?")).toBe("SELECT * FROM t WHERE a = $1 AND b = '?' AND c = $2")
  })

  test('BIGINT columns and counts come back as numbers', async () => {
    expect(await db.raw.get('SELECT id, n, at FROM pg_counters WHERE id = ?', [1])).toEqual({ id: 1, n: 0, at: 1_767_225_600_000 })
    expect(await db.raw.get('SELECT count(*) AS n FROM pg_counters')).toEqual({ n: 1 })
    expect(await db.kysely.selectFrom('pg_counters').select(['id', 'at']).executeTakeFirst()).toEqual({ id: 1, at: 1_767_225_600_000 })
  })

  test('60 concurrent read-modify-write transactions from two pools serialize: none is lost', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? second : db).write('increment', async (tx) => {
          const { n } = await tx.kysely.selectFrom('pg_counters').select('n').where('id', '=', 1).executeTakeFirstOrThrow()
          await Bun.sleep(1)
          await tx.kysely
            .updateTable('pg_counters')
            .set({ n: n + 1 })
            .where('id', '=', 1)
            .execute()
        }),
      ),
    )
    expect(await db.raw.get('SELECT n FROM pg_counters WHERE id = 1')).toEqual({ n: 60 })
  })

  test('a block that throws rolls back everything it wrote; run() counts changed rows', async () => {
    const failing = db.write('fails', async (tx) => {
      expect(await tx.raw.run('UPDATE pg_counters SET note = ? WHERE id = 1', ['changed'])).toBe(1)
      await tx.kysely.insertInto('pg_counters').values({ id: 2, n: 1, note: 'x', at: 0 }).execute()
      throw new Error('refused')
    })
    expect(failing).rejects.toThrow('refused')
    await failing.catch(() => {})
    expect(await db.raw.all('SELECT id, note FROM pg_counters ORDER BY id')).toEqual([{ id: 1, note: '' }])
  })

  test('afterCommit effects run after a commit only', async () => {
    const seen: string[] = []
    await db.write('ok', async (tx) => tx.afterCommit(() => seen.push('committed')))
    await db
      .write('rolled back', async (tx) => {
        tx.afterCommit(() => seen.push('never'))
        throw new Error('no')
      })
      .catch(() => {})
    expect(seen).toEqual(['committed'])
  })

  test('a backup is refused with the way to take one', async () => {
    await expect(db.admin.backupTo('/tmp/x')).rejects.toThrow(/pg_dump/)
  })

  test('a database not encoded UTF8 is refused, saying how to make one that is', async () => {
    await requireUtf8(db)
    await db.raw.run("CREATE DATABASE latin TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'")
    const latin = openPostgres(server.url.replace(/\/switchboard$/, '/latin'))
    try {
      await expect(requireUtf8(latin)).rejects.toThrow(
        "the PostgreSQL database is encoded LATIN1; Switchboard needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)",
      )
    } finally {
      await latin.close()
    }
  })
})
