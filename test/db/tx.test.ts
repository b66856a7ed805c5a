// connectionOf: the bun:sqlite connection under a drizzle transaction is the one the transaction is
// open on: what a statement writes through it is seen inside, committed with it, and rolled back with it.
import { afterAll, describe, expect, test } from 'bun:test'
import { connectionOf, write } from '../../src/db/tx.ts'
import { makeTestApp } from '../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const count = () => app.deps.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM system_kv WHERE key LIKE 'tx-test:%'").get()!.n

describe('connectionOf', () => {
  test('statements on it are part of the open transaction: committed with it, rolled back with it', () => {
    write(app.deps.db, (tx) => {
      connectionOf(tx).query("INSERT INTO system_kv (key, value, updated_at) VALUES ('tx-test:kept', '1', 0)").run()
      expect(count()).toBe(1)
    })
    expect(count()).toBe(1)
    expect(() =>
      write(app.deps.db, (tx) => {
        connectionOf(tx).query("INSERT INTO system_kv (key, value, updated_at) VALUES ('tx-test:dropped', '1', 0)").run()
        throw new Error('roll back')
      }),
    ).toThrow('roll back')
    expect(count()).toBe(1)
  })
})
