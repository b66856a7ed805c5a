// DatabaseAdmin.snapshot on the engine under test: one consistent, read-only view while writes go on
// (what `switchboard audit verify` reads its chains in).
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const db = app.context.db

const put = (key: string) =>
  db.write('snapshot test', (tx) => tx.raw.run('INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?)', [key, 'x', 1]))
const count = async (view: { raw: typeof db.raw }) =>
  Number((await view.raw.get<{ n: number }>("SELECT count(*) AS n FROM system_kv WHERE key LIKE 'snap-%'"))!.n)

describe('snapshot', () => {
  test('a write committed while it is open is not seen inside it, and is seen after', async () => {
    await put('snap-1')
    const seen = await db.admin.snapshot(async (view) => {
      const before = await count(view)
      // Committed by the writer while the snapshot is open: it must not wait for the snapshot, nor show in it.
      await put('snap-2')
      await put('snap-3')
      return [before, await count(view), await count(db)]
    })
    expect(seen).toEqual([1, 1, 3])
    expect(await count(db)).toBe(3)
  })

  test('it is read-only: a write inside it fails, and changes nothing', async () => {
    const before = await count(db)
    await expect(
      db.admin.snapshot((view) => view.raw.run('INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?)', ['snap-x', 'x', 1])),
    ).rejects.toThrow(/read.?only/i)
    expect(await count(db)).toBe(before)
  })

  test("the block's value comes back, and its error is thrown", async () => {
    expect(await db.admin.snapshot(async (view) => count(view))).toBe(await count(db))
    await expect(
      db.admin.snapshot(async () => {
        throw new Error('inside')
      }),
    ).rejects.toThrow('inside')
  })
})
