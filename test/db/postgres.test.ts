// The server engine under the data layer, on a throwaway PostgreSQL: portable SQL runs as written,
// BIGINT comes back as numbers, write transactions run concurrently (a read-modify-write locks its row),
// deadlocks and conflicts are run again, timeouts answer DatabaseBusy, the commit pipeline keeps its
// order, transactions roll back whole and run their after-commit effects only after a commit. Skipped, saying so, where PostgreSQL is missing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from '../../src/db/database.ts'
import { numbered, openPostgres, requireUtf8 } from '../../src/db/postgres.ts'
import { DatabaseBusy, WRITE_ATTEMPTS } from '../../src/db/retry.ts'
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

  // The rows a decision depends on are locked (Tx.forUpdate): without it the reads interleave and increments are lost.
  test('60 concurrent read-modify-write transactions from two pools, each locking its row: none is lost', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? second : db).write('increment', async (tx) => {
          const { n } = (await tx.raw.get<{ n: number }>(`SELECT n FROM pg_counters WHERE id = 1${tx.forUpdate}`))!
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

  test('write transactions run at once: two that each wait for the other both finish (no writer lock between them)', async () => {
    const met = Promise.withResolvers<void>()
    let arrived = 0
    const meet = async () => {
      if (++arrived === 2) met.resolve()
      await met.promise
    }
    await Promise.all([db.write('one', meet), second.write('two', meet)])
    expect(arrived).toBe(2)
  })

  test('a deadlock is run again invisibly: both writes commit, one of them twice', async () => {
    await db.raw.run("INSERT INTO pg_counters (id, n, note, at) VALUES (10, 0, '', 0), (11, 0, '', 0)")
    const retried: string[] = []
    const a = openPostgres(server.url, { onRetry: (name) => retried.push(name) })
    try {
      let bothLocked = Promise.withResolvers<void>()
      let locked = 0
      const cross = (first: number, then: number) => async (tx: Parameters<Parameters<Database['write']>[1]>[0]) => {
        await tx.raw.run('UPDATE pg_counters SET n = n + 1 WHERE id = ?', [first])
        if (++locked === 2) bothLocked.resolve()
        await Promise.race([bothLocked.promise, Bun.sleep(2000)])
        await tx.raw.run('UPDATE pg_counters SET n = n + 1 WHERE id = ?', [then])
      }
      await Promise.all([a.write('ab', cross(10, 11)), a.write('ba', cross(11, 10))])
      bothLocked = Promise.withResolvers<void>()
      expect(retried.length).toBeGreaterThanOrEqual(1)
      expect(await db.raw.all('SELECT id, n FROM pg_counters WHERE id IN (10, 11) ORDER BY id')).toEqual([
        { id: 10, n: 2 },
        { id: 11, n: 2 },
      ])
    } finally {
      await a.close()
    }
  })

  test('a write that keeps conflicting gives up after its attempts with DatabaseBusy (503 to a client)', async () => {
    let attempts = 0
    const failing = db.write('always conflicts', async () => {
      attempts++
      throw Object.assign(new Error('could not serialize access'), { errno: '40001' })
    })
    await expect(failing).rejects.toBeInstanceOf(DatabaseBusy)
    expect(attempts).toBe(WRITE_ATTEMPTS)
  })

  test('lock_timeout and statement_timeout end a waiting or running statement with DatabaseBusy', async () => {
    const quick = openPostgres(server.url, { lockTimeoutMs: 100, statementTimeoutMs: 300 })
    const holder = await new Bun.SQL(server.url).reserve()
    try {
      await holder.unsafe('BEGIN')
      await holder.unsafe('SELECT n FROM pg_counters WHERE id = 1 FOR UPDATE')
      await expect(quick.write('waits', (tx) => tx.raw.run('UPDATE pg_counters SET n = n WHERE id = 1'))).rejects.toBeInstanceOf(
        DatabaseBusy,
      )
      await holder.unsafe('ROLLBACK')
      await expect(quick.write('runs long', (tx) => tx.raw.get('SELECT pg_sleep(2)'))).rejects.toBeInstanceOf(DatabaseBusy)
      // Nothing is left held: the next write goes through.
      expect(await quick.write('after', (tx) => tx.raw.run('UPDATE pg_counters SET note = note WHERE id = 1'))).toBe(1)
    } finally {
      holder.release()
      await quick.close()
    }
  })

  test('the commit pipeline: atCommit statements run after the block, in order, keyed locks first; their results settle at commit', async () => {
    const order = await db.write('pipeline', async (tx) => {
      tx.lockAtCommit('b')
      tx.lockAtCommit('a')
      const first = tx.atCommit(() => tx.raw.get<{ v: string }>("SELECT 'first' AS v"))
      const second = tx.atCommit(() => tx.raw.get<{ n: number }>('SELECT n FROM pg_counters WHERE id = 1'))
      await tx.raw.run('UPDATE pg_counters SET n = n + 100 WHERE id = 1')
      return { first, second }
    })
    expect(await order.first).toEqual({ v: 'first' })
    // It ran after the block's UPDATE.
    expect((await order.second)!.n).toBe(Number((await db.raw.get<{ n: number }>('SELECT n FROM pg_counters WHERE id = 1'))!.n))
    // A deferred statement that fails rolls the whole transaction back.
    await expect(
      db.write('pipeline fails', async (tx) => {
        await tx.raw.run('UPDATE pg_counters SET n = n + 1000 WHERE id = 1')
        void tx.atCommit(() => tx.raw.run('INSERT INTO pg_counters (id, n, note, at) VALUES (1, 0, ?, 0)', ['duplicate key']))
      }),
    ).rejects.toThrow()
    expect(Number((await db.raw.get<{ n: number }>('SELECT n FROM pg_counters WHERE id = 1'))!.n)).toBeLessThan(1000)
    // An atCommit block that awaits between statements would run its later ones outside the transaction: refused.
    await expect(
      db.write('awaits inside atCommit', async (tx) => {
        void tx.atCommit(async () => {
          await tx.raw.get('SELECT 1')
          await tx.raw.get('SELECT 2')
        })
      }),
    ).rejects.toThrow('started after COMMIT')
    // The batch is raw statements: a Kysely query there is refused, not run beside it.
    await expect(
      db.write('kysely inside atCommit', async (tx) => {
        void tx.atCommit(() => tx.kysely.selectFrom('pg_counters').select('n').execute())
      }),
    ).rejects.toThrow(/started after COMMIT|must use tx.raw/)
  })

  test('a value written in the commit batch (as a literal) reads back exactly as a bound one', async () => {
    const texts = ["it's", 'back\\slash \\x41', "'; DROP TABLE pg_counters; --", 'ünïcödé 🎧 \u2028', '?', "''", '$1', '']
    for (const [i, note] of texts.entries()) {
      await db.write('batched literal', async (tx) => {
        void tx.atCommit(() =>
          tx.raw.run('INSERT INTO pg_counters (id, n, note, at) VALUES (?, ?, ?, ?)', [100 + i, -1.5e3, note, 2 ** 53 - 1]),
        )
      })
      expect(await db.raw.get('SELECT n, note, at FROM pg_counters WHERE id = ?', [100 + i])).toEqual({ n: -1500, note, at: 2 ** 53 - 1 })
    }
    await expect(
      db.write('batched NUL', async (tx) => {
        void tx.atCommit(() => tx.raw.run('INSERT INTO pg_counters (id, n, note, at) VALUES (?, 0, ?, 0)', [200, 'a\u0000b']))
      }),
    ).rejects.toThrow('NUL')
    await db.raw.run('DELETE FROM pg_counters WHERE id >= 100')
  })

  test('a block that throws rolls back everything it wrote; run() counts changed rows', async () => {
    const failing = db.write('fails', async (tx) => {
      expect(await tx.raw.run('UPDATE pg_counters SET note = ? WHERE id = 1', ['changed'])).toBe(1)
      await tx.kysely.insertInto('pg_counters').values({ id: 2, n: 1, note: 'x', at: 0 }).execute()
      throw new Error('refused')
    })
    expect(failing).rejects.toThrow('refused')
    await failing.catch(() => {})
    expect(await db.raw.all('SELECT id, note FROM pg_counters WHERE id < 10 ORDER BY id')).toEqual([{ id: 1, note: '' }])
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
