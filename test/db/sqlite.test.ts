// The embedded engine under the data layer: one writer behind a first-come-first-served lock, reads on
// their own connection, async transactions that commit or roll back whole, and the slow-write warning.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../src/db/database.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { BULK_PREFIX, WriterLock, WriterLockTimeout } from '../../src/db/writer-lock.ts'

declare module '../../src/db/database.ts' {
  interface Tables {
    counters: { id: number; n: number; note: string }
  }
}

const root = mkdtempSync(join(tmpdir(), 'switchboard-sqlite-'))
let files = 0
const opened: Database[] = []
afterAll(async () => {
  for (const db of opened) await db.close()
  rmSync(root, { recursive: true, force: true })
})

async function freshDb(options: Parameters<typeof openSqlite>[1] = {}): Promise<Database> {
  const db = openSqlite(join(root, `test-${files++}.db`), options)
  opened.push(db)
  await db.write('schema', async (tx) => {
    await tx.raw.run('CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, note TEXT NOT NULL)')
    await tx.raw.run("INSERT INTO counters (id, n, note) VALUES (1, 0, '')")
  })
  return db
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('write transactions', () => {
  test('50 concurrent read-modify-write transactions that await in the middle serialize: none is lost', async () => {
    const db = await freshDb()
    await Promise.all(
      Array.from({ length: 50 }, () =>
        db.write('increment', async (tx) => {
          const { n } = await tx.kysely.selectFrom('counters').select('n').where('id', '=', 1).executeTakeFirstOrThrow()
          await tick()
          await tx.kysely
            .updateTable('counters')
            .set({ n: n + 1 })
            .where('id', '=', 1)
            .execute()
        }),
      ),
    )
    expect(await db.raw.get('SELECT n FROM counters WHERE id = 1')).toEqual({ n: 50 })
  })

  test('a block that throws rolls back everything it wrote, and the error reaches the caller', async () => {
    const db = await freshDb()
    const failing = db.write('fails', async (tx) => {
      await tx.raw.run('UPDATE counters SET n = 99 WHERE id = 1')
      await tx.kysely.insertInto('counters').values({ id: 2, n: 1, note: 'x' }).execute()
      throw new Error('refused')
    })
    expect(failing).rejects.toThrow('refused')
    await failing.catch(() => {})
    expect(await db.raw.all('SELECT id, n FROM counters')).toEqual([{ id: 1, n: 0 }])
  })

  test('reads outside the transaction never see its uncommitted writes; they see them once committed', async () => {
    const db = await freshDb()
    let during: unknown
    await db.write('write', async (tx) => {
      await tx.raw.run("UPDATE counters SET note = 'uncommitted' WHERE id = 1")
      during = await db.kysely.selectFrom('counters').select('note').where('id', '=', 1).executeTakeFirst()
    })
    expect(during).toEqual({ note: '' })
    expect(await db.kysely.selectFrom('counters').select('note').where('id', '=', 1).executeTakeFirst()).toEqual({ note: 'uncommitted' })
  })

  test('afterCommit effects run after a commit, in order, and never after a rollback', async () => {
    const db = await freshDb()
    const seen: string[] = []
    await db.write('ok', async (tx) => {
      tx.afterCommit(() => seen.push('first'))
      tx.afterCommit(() => seen.push('second'))
      expect(seen).toEqual([])
    })
    await db
      .write('rolled back', async (tx) => {
        tx.afterCommit(() => seen.push('never'))
        throw new Error('no')
      })
      .catch(() => {})
    expect(seen).toEqual(['first', 'second'])
  })

  test('a write statement outside any transaction waits for the open one, then runs', async () => {
    const db = await freshDb()
    const order: string[] = []
    const open = db.write('long', async (tx) => {
      await tx.raw.run('UPDATE counters SET n = 1 WHERE id = 1')
      await tick()
      order.push('transaction done')
    })
    const outside = db.raw.run('UPDATE counters SET n = n + 10 WHERE id = 1').then(() => order.push('statement done'))
    await Promise.all([open, outside])
    expect(order).toEqual(['transaction done', 'statement done'])
    expect(await db.raw.get('SELECT n FROM counters WHERE id = 1')).toEqual({ n: 11 })
  })

  test('holding the writer past the threshold is reported with the transaction name and the time held', async () => {
    const slow: Array<[string, number]> = []
    // Counted from after the schema's own write (a loaded machine once took longer than the threshold
    // for it), with a threshold no empty transaction comes near.
    let watching = false
    const db = await freshDb({ slowMs: 100, onSlowWrite: (name, ms) => watching && slow.push([name, ms]) })
    watching = true
    await db.write('quick', async () => {})
    await db.write('ticket.import', async () => {
      await new Promise((resolve) => setTimeout(resolve, 200))
    })
    expect(slow.map(([name]) => name)).toEqual(['ticket.import'])
    expect(slow[0]![1]).toBeGreaterThanOrEqual(150)
  })
})

describe('WriterLock', () => {
  test('grants in arrival order', async () => {
    const lock = new WriterLock()
    const order: string[] = []
    expect(lock.acquire('a')).toBeUndefined()
    const waits = ['b', 'c', 'd'].map((name) =>
      lock.acquire(name)!.then(() => {
        order.push(name)
        lock.release()
      }),
    )
    expect(lock.heldBy).toBe('a')
    lock.release()
    await Promise.all(waits)
    expect(order).toEqual(['b', 'c', 'd'])
    expect(lock.heldBy).toBeUndefined()
  })

  test('a waiter gives up after the wait timeout, naming itself and the holder; the queue goes on', async () => {
    const lock = new WriterLock({ waitTimeoutMs: 20 })
    lock.acquire('holder')
    const waiting = lock.acquire('statement outside a transaction')!
    expect(waiting).rejects.toThrow(WriterLockTimeout)
    expect(waiting).rejects.toThrow('"statement outside a transaction" waited 20 ms for the database writer, held by "holder"')
    await waiting.catch(() => {})
    lock.release()
    expect(lock.acquire('next')).toBeUndefined()
  })

  test('behind a bulk write (an import), a waiter waits it out, however many timeouts it lasts; its hold is not reported as slow', async () => {
    const slow: string[] = []
    const lock = new WriterLock({ waitTimeoutMs: 20, slowMs: 1, onSlow: (name) => slow.push(name) })
    lock.acquire(`${BULK_PREFIX}contact.import`)
    let granted = false
    const waiting = lock.acquire('ticket.create')!.then(() => (granted = true))
    await Bun.sleep(100)
    expect(granted).toBe(false)
    lock.release()
    await waiting
    expect(lock.heldBy).toBe('ticket.create')
    await Bun.sleep(5)
    lock.release()
    expect(slow).toEqual(['ticket.create'])
  })
})
